// Every page a journey visits is checked with axe-core against WCAG 2.2 AA (issue 33, docs/accessibility.md): each
// document a page loads, each address a single-page app moves to, and each page as it is when the journey ends,
// once per shape of page in a run (`shapeOf`). A page with JavaScript
// off cannot run axe: its HTML, as the browser shows it, is checked in a page of the same size with JavaScript on,
// at the same address, its styles and images loaded from the product and its scripts left out (they never ran).
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, type Page, test } from "@playwright/test";

/** The rules checked: WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Axe for `page`, run in the page alone (axe's "legacy mode", one `axe.run`): the default mode also opens a blank page
 * in the context at every run, to put together what each frame found, which doubled a check's time and showed
 * journeys a tab they had not opened. Frames are left out of every check (below), so there is nothing to put together.
 */
export const axeFor = (page: Page) => new AxeBuilder({ page }).setLegacyMode(true);

/** One violation as a journey's failure lists it: where, which rule, on which elements. */
export type Violation = string;

/** The rule, its impact and the elements (CSS selectors, at most five) of each violation axe found. */
const listed = (url: string, results: Awaited<ReturnType<AxeBuilder["analyze"]>>): Violation[] =>
  results.violations.map(
    (violation) =>
      `${url}: ${violation.id} (${violation.impact}) on ${violation.nodes
        .slice(0, 5)
        .map((node) => node.target.join(" "))
        .join(
          ", ",
        )}${violation.nodes.length > 5 ? ` and ${violation.nodes.length - 5} more` : ""}: ${violation.help} (${violation.nodes[0]?.html.slice(0, 120)})`,
  );

/** Scripts never ran in a page without JavaScript: its HTML is checked without them. */
const withoutScripts = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/gi, "");

/** Elements that draw nothing axe could judge: what a page loads and runs, not what it shows. */
const UNSEEN_TAGS = new Set(["script", "style", "link", "meta", "noscript", "template", "base"]);

/** Attributes whose value is the page's words or its ids (a label, what describes a field): only their presence counts. */
const NAMED_ONLY =
  /^aria-(label|labelledby|describedby|errormessage|valuetext|valuenow|valuemin|valuemax|controls|owns|activedescendant|details|roledescription|keyshortcuts|placeholder)$/;

/** One element as its shape counts it: its tag with the attributes that decide how it looks and what it is. */
function signatureOf(tag: string, attributes: string) {
  const kept = [
    ...attributes.matchAll(/\s(class|role|type|lang|dir|aria-[\w-]+|disabled|hidden|tabindex|alt)(?:="([^"]*)")?/g),
  ].map(([, name = "", value = ""]) =>
    NAMED_ONLY.test(name) || name === "alt" ? `${name}=${value === "" ? "" : "*"}` : `${name}=${value}`,
  );
  return `${tag.toLowerCase()}[${kept.join(" ")}]`.replace(/\d+/g, "N");
}

/**
 * A page's shape, without its words: the kinds of element it holds, each a tag with the attributes that decide how
 * it looks and what it is (class, role, type, state), numbers blanked, at one screen width. Axe judges elements by
 * kind (their colours come from their classes, their names from their kind of label), so two pages made of the same
 * kinds pass or fail alike, however many of each they hold and at whatever address: the buy page of two events, of a
 * basket of one ticket or of five. A shape is checked once per run; a new state (an error summary, a refused field, a
 * basket that holds something, the dark theme's classes) brings new kinds, so a new shape. What a page loads and
 * runs (scripts, styles, metadata) is left out, so a page without JavaScript and the same page with it share a shape
 * when the scripts changed nothing a user meets.
 */
function shapeOf(html: string, width: number) {
  const kinds = new Set<string>();
  for (const [, tag = "", attributes = ""] of html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g))
    if (!UNSEEN_TAGS.has(tag.toLowerCase())) kinds.add(signatureOf(tag, attributes));
  const listed = [`width ${width}`, ...[...kinds].sort()];
  return { id: createHash("sha1").update(listed.join("\n")).digest("hex"), kinds: listed };
}

/**
 * Runs `analyze` on `page` once no other axe run is under way there: axe refuses to run twice at once in a page, and
 * this check and a journey's own assertion (`expectAccessible`) may meet on one page.
 */
const axeRuns = new WeakMap<Page, Promise<unknown>>();
export function oneAxeRunAtATime<T>(page: Page, analyze: () => Promise<T>): Promise<T> {
  const next = (axeRuns.get(page) ?? Promise.resolve()).then(analyze);
  axeRuns.set(
    page,
    next.catch(() => undefined),
  );
  return next;
}

/**
 * The shapes checked in this run, by all its workers: a folder per shape, made by the worker that takes it (a folder
 * is made once, atomically). The workers of one run are the children of one runner process, hence its pid; a
 * journey tried again checks its pages again (a retry's shapes are apart).
 */
const shapesFolder = () =>
  join(import.meta.dirname, "test-results", `accessibility-shapes-${process.ppid}-${test.info().retry}`);
const checkedShapes = {
  /** Takes the shape if no check took it yet, writing down its kinds of element and the first page of its shape. */
  take(shape: ReturnType<typeof shapeOf>, url: string) {
    mkdirSync(shapesFolder(), { recursive: true });
    try {
      mkdirSync(join(shapesFolder(), shape.id));
      writeFileSync(join(shapesFolder(), shape.id, "kinds.txt"), [url, ...shape.kinds, ""].join("\n"));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
  },
  giveBack: (shape: string) => rmSync(join(shapesFolder(), shape), { recursive: true, force: true }),
};

/** Where the checks are written down, one JSON a line. */
const CHECKED_PAGES_FILE = join(import.meta.dirname, "test-results", "accessibility-checks.jsonl");

/**
 * Checks the pages of `context` as they load, into `violations`; `settled()` waits for the checks begun. With
 * JavaScript off, the copies are checked in pages `browser` opens (JavaScript on, the same viewport and colours).
 */
export function checkPagesOf(
  context: BrowserContext,
  options: { browser: Browser; javaScriptEnabled: boolean; violations: Violation[] },
) {
  const checks = new Set<Promise<void>>();
  const checkNow = new Map<Page, () => void>();
  let checker: Promise<BrowserContext> | null = null;
  const checkerFor = (page: Page) => {
    checker ??= options.browser.newContext({
      javaScriptEnabled: true,
      viewport: page.viewportSize(),
      colorScheme: "light",
    });
    return checker;
  };

  /** Writes a verdict down: whether it counted (`dropped`: a visit overtook it), what it found and what it cost. */
  const record = (url: string, found: Violation[], startedAt: number, dropped = false) => {
    mkdirSync(dirname(CHECKED_PAGES_FILE), { recursive: true });
    appendFileSync(
      CHECKED_PAGES_FILE,
      `${JSON.stringify({ url, javaScript: options.javaScriptEnabled, violations: found.length, dropped, ms: Date.now() - startedAt })}\n`,
    );
  };

  /** Axe's verdict on `target` (the page, or its copy): the violations found. */
  const analyze = async (target: Page, url: string) => {
    // Options first: `options()` replaces all of them, the rules `withTags` chose included. Frames are left out:
    // the back office's mail preview is a sandboxed frame axe cannot run in (it waited forever), and a PDF's frame
    // is the browser's viewer, not ours.
    const results = await axeFor(target)
      .options({ resultTypes: ["violations"], iframes: false })
      .withTags(WCAG_TAGS)
      .exclude("iframe")
      .analyze();
    return listed(url, results);
  };

  /** The page's shape as it is now, when not checked yet in this run (and takes it); else null. */
  const newShape = (page: Page, { url, html }: { url: string; html: string }) => {
    const shape = shapeOf(html, page.viewportSize()?.width ?? 0);
    return checkedShapes.take(shape, url) ? shape.id : null;
  };

  /**
   * The page's address and HTML, read together: null when it moved to another document in between (that one is
   * checked when it loads) or is in the middle of a visit (Turbo marks the document busy until the new one is in).
   */
  const snapshot = async (page: Page) => {
    const url = page.url();
    const html = await page.content();
    if (page.url() !== url || isBusy(html)) return null;
    return { url, html };
  };

  /**
   * Checks the page in place. A visit that began while axe ran (the address moved, or Turbo marked the document busy:
   * its `aria-busy` on `<html>` is then what axe reports) leaves a verdict on a page half replaced: it is dropped and
   * the shape given back, and the document the visit brings is checked when it loads.
   */
  const checkWithJavaScript = async (page: Page) => {
    const seen = await snapshot(page);
    const shape = seen && newShape(page, seen);
    if (!seen || !shape) return;
    try {
      // A run that an earlier check left behind (a Turbo visit kept the document, and with it axe) ends first.
      await page.waitForFunction(() => !(window as { axe?: { _running?: boolean } }).axe?._running, null, {
        timeout: 30_000,
      });
      const startedAt = Date.now();
      const found = await oneAxeRunAtATime(page, () => analyze(page, seen.url));
      const isBusyNow = await page.evaluate(() => document.documentElement.getAttribute("aria-busy") === "true");
      // A visit may also begin and end at the same address while axe runs (a form sent back to its own page): axe
      // then saw the busy `<html>` the snapshot did not have.
      const metVisit = found.some((violation) => /\(<html[^>]*\saria-busy="true"/.test(violation));
      const isKept = page.url() === seen.url && !isBusyNow && !metVisit;
      record(seen.url, found, startedAt, !isKept);
      if (isKept) {
        options.violations.push(...found);
        return;
      }
    } catch (error) {
      checkedShapes.giveBack(shape);
      throw error;
    }
    checkedShapes.giveBack(shape);
  };

  const checkWithoutJavaScript = async (page: Page) => {
    const seen = await snapshot(page);
    if (!seen || !newShape(page, seen)) return;
    const { url, html } = seen;
    const copy = await (await checkerFor(page)).newPage();
    try {
      await copy.setViewportSize(page.viewportSize() ?? { width: 1280, height: 720 });
      // At the page's own address, so that its styles and images come from the product as they did.
      await copy.route(
        (address) => address.href === url,
        (route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: withoutScripts(html) }),
      );
      await copy.goto(url, { waitUntil: "load" });
      const startedAt = Date.now();
      const found = await analyze(copy, url);
      record(url, found, startedAt);
      options.violations.push(...found);
    } finally {
      await copy.close();
    }
  };

  // One check at a time a page (axe refuses to run twice at once); a check the page left behind (it went on to
  // another document meanwhile) is dropped: the next document is checked when it loads.
  const watch = (page: Page) => {
    let queue = Promise.resolve();
    // Set at the page's first check, not when it opens: a tab a link opens is left alone until it has loaded.
    let areAnimationsSpedUp = false;
    const check = () => {
      if (page.isClosed() || !/^https?:/.test(page.url())) return;
      queue = queue.then(async () => {
        if (options.javaScriptEnabled && !areAnimationsSpedUp) {
          areAnimationsSpedUp = true;
          await instantAnimations(context, page);
        }
        try {
          await (options.javaScriptEnabled ? checkWithJavaScript(page) : checkWithoutJavaScript(page));
        } catch (error) {
          if (!page.isClosed() && !isLeftBehind(error)) throw error;
        }
      });
      const tracked = queue.catch((error: unknown) => {
        options.violations.push(`${page.url()}: the accessibility check failed: ${String(error)}`);
      });
      checks.add(tracked);
      void tracked.finally(() => checks.delete(tracked));
    };
    checkNow.set(page, check);
    page.on("load", check);
    // A single-page app (the back office) moves between screens without loading a document: the screen is checked
    // once its data has come (no request for half a second), or as it is when the journey has gone on.
    page.on("framenavigated", (frame) => {
      if (frame !== page.mainFrame() || !options.javaScriptEnabled) return;
      void page.waitForLoadState("networkidle", { timeout: 10_000 }).then(check, check);
    });
  };
  for (const page of context.pages()) watch(page);
  context.on("page", watch);

  return {
    /** Waits for every check begun, and for their own pages to close. */
    async settled() {
      // A page still open is checked once more as it is at the end: what the last steps changed on it.
      for (const page of context.pages()) checkNow.get(page)?.();
      while (checks.size > 0) await Promise.all([...checks]);
      if (checker) await (await checker).close();
    },
  };
}

/** Whether Turbo marked the document busy: a visit is under way and the next document will replace it. */
const isBusy = (html: string) =>
  /^<html[^>]*\saria-busy="true"/i.test(html.replace(/^<!doctype[^>]*>/i, "").trimStart());

/**
 * A check overtaken by the page: it navigated, or closed, while axe ran; or the document was reloaded at the same
 * address, and axe's next step found its script gone from the new one.
 */
const isLeftBehind = (error: unknown) =>
  /Execution context was destroyed|Target page, context or browser has been closed|frame was detached|navigat|reading '(runPartial|utils|run|finishRun)'/i.test(
    String(error),
  );

/**
 * Axe reads the colours of the frame it runs on while the journey goes on: a transition under way (a Save button
 * turning from disabled to enabled, a menu or a dialog fading in) shows colours halfway between two states, which
 * is no state of the page. In a checked page, animations and transitions run a thousand times faster (Chromium's
 * DevTools protocol, kept across the page's documents), so axe sees the colours they end on.
 */
async function instantAnimations(context: BrowserContext, page: Page) {
  try {
    const devTools = await context.newCDPSession(page);
    await devTools.send("Animation.enable");
    await devTools.send("Animation.setPlaybackRate", { playbackRate: 1000 });
  } catch (error) {
    if (!page.isClosed()) throw error;
  }
}
