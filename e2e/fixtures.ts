// What the journeys share: the `test` they run in (pages that close themselves, and fail the journey on any
// Content-Security-Policy violation, and on any WCAG 2.2 AA violation axe-core finds on a page it visits, unless
// E2E_ACCESSIBILITY=0), the demo logins, a ticket's QR code read back from its PDF.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  type BrowserContext,
  type BrowserContextOptions,
  test as base,
  type Download,
  type Page,
} from "@playwright/test";
import { checkPagesOf, type Violation } from "./accessibility.ts";

export { expect } from "@playwright/test";

interface JourneyFixtures {
  /**
   * Opens a page in a browser context of its own (another person, or the same person with other options); the
   * context is closed when the test ends, however it ends.
   */
  openPage: (options?: BrowserContextOptions) => Promise<Page>;
  /** Fails a test that leaves a browser context open: the next journeys would run in a heavier browser. */
  closesWhatItOpens: undefined;
  /**
   * What the pages' Content-Security-Policy refused, in every context of the test (docs/decisions/0007): a journey
   * that ends with any fails.
   */
  cspViolations: string[];
  /**
   * What axe-core found against WCAG 2.2 AA on the pages of every context of the test, each state of each page
   * checked as it loads and at the end (e2e/accessibility.ts): a journey that ends with any fails.
   */
  accessibilityViolations: Violation[];
}

interface JourneyOptions {
  /**
   * Whether every page is checked with axe-core (e2e/accessibility.ts): on, unless E2E_ACCESSIBILITY=0 (to find
   * whether a journey's failure is the check's).
   */
  accessibilityCheck: boolean;
}

declare global {
  interface Window {
    reportCspViolation?: (text: string) => void;
  }
}

/**
 * Collects the policy's refusals into `violations`: the `securitypolicyviolation` events of every document (with
 * JavaScript on), and the browser's own console reports of them (with JavaScript off too).
 */
async function watchContentSecurityPolicy(context: BrowserContext, violations: string[]) {
  await context.exposeFunction("reportCspViolation", (text: string) => void violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      window.reportCspViolation?.(
        `${event.documentURI}: ${event.effectiveDirective} refused ${event.blockedURI || "inline"} (${event.sample})`,
      ),
    );
  });
  context.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text()))
      violations.push(`${message.location().url}: ${message.text()}`);
  });
}

export const test = base.extend<JourneyFixtures & JourneyOptions>({
  accessibilityCheck: [process.env.E2E_ACCESSIBILITY !== "0", { option: true }],
  cspViolations: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const violations: string[] = [];
      await use(violations);
      // Torn down after every context of the test is closed: nothing is still on its way.
      if (violations.length > 0)
        throw new Error(`${violations.length} Content-Security-Policy violation(s):\n${violations.join("\n")}`);
    },
    { auto: true },
  ],
  accessibilityViolations: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const violations: Violation[] = [];
      await use(violations);
      if (violations.length > 0)
        throw new Error(`${violations.length} accessibility violation(s) (WCAG 2.2 AA):\n${violations.join("\n")}`);
    },
    { auto: true },
  ],
  context: async (
    { context, cspViolations, accessibilityCheck, accessibilityViolations, browser, javaScriptEnabled },
    use,
  ) => {
    await watchContentSecurityPolicy(context, cspViolations);
    const checks = accessibilityCheck
      ? checkPagesOf(context, {
          browser,
          javaScriptEnabled: javaScriptEnabled !== false,
          violations: accessibilityViolations,
        })
      : null;
    await use(context);
    await checks?.settled();
  },
  closesWhatItOpens: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use(undefined);
      const left = browser.contexts().filter((context) => !before.has(context));
      await Promise.all(left.map((context) => context.close()));
      if (left.length > 0) throw new Error(`${left.length} browser context(s) left open: use the openPage fixture`);
    },
    { auto: true },
  ],
  openPage: async ({ browser, cspViolations, accessibilityCheck, accessibilityViolations, javaScriptEnabled }, use) => {
    const opened: BrowserContext[] = [];
    const checks: ReturnType<typeof checkPagesOf>[] = [];
    await use(async (options) => {
      // The runner gives these contexts the config's `use` options (base URL, locale), as it does `page`'s.
      const context = await browser.newContext(options);
      opened.push(context);
      await watchContentSecurityPolicy(context, cspViolations);
      if (accessibilityCheck)
        checks.push(
          checkPagesOf(context, {
            browser,
            javaScriptEnabled: (options?.javaScriptEnabled ?? javaScriptEnabled) !== false,
            violations: accessibilityViolations,
          }),
        );
      return context.newPage();
    });
    // Each context's last checks end before it closes.
    for (const check of checks) await check.settled();
    await Promise.all(opened.map((context) => context.close()));
  },
});

export const ORGANISER = { email: "organiser@example.org", password: "demo-organiser-2026!" };
export const MODERATOR = { email: "moderator@example.org", password: "demo-moderator-2026!" };

/** A download's bytes, read from Playwright's copy of the file. */
export async function downloaded(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A PDF written to a folder of its own, for poppler's tools (pdftoppm, pdftotext) to read and write beside. */
export function pdfFile(pdf: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), "pdf-")), "document.pdf");
  writeFileSync(file, pdf);
  return file;
}

/** Renders the PDF's first page with pdftoppm and decodes its QR code with zbarimg (Debian packages). */
export const decodeTicketQr = (pdf: Buffer): string => ticketQrCodes(pdf)[0] ?? "";

/** The QR code of every page of a PDF, in page order: each page rendered with pdftoppm, decoded with zbarimg. */
export function ticketQrCodes(pdf: Buffer): string[] {
  const file = pdfFile(pdf);
  const dir = dirname(file);
  execFileSync("pdftoppm", ["-png", "-r", "150", file, join(dir, "page")]);
  // page-1.png, page-2.png… (zero-padded from ten pages on): name order is page order.
  const pages = readdirSync(dir)
    .filter((name) => name.endsWith(".png"))
    .sort();
  return pages.map((page) =>
    execFileSync("zbarimg", ["--quiet", "--raw", join(dir, page)])
      .toString()
      .trim(),
  );
}

export const uniquePath = (prefix: string) => `${prefix}-${Date.now().toString(36)}`;

/**
 * Types into the back office's date-time input (admin/src/fields/DateTimeInput.tsx), whose field is a group of
 * sections filled key by key from the first: in English `MMddyyyy hhmm` then AM or PM ("07012030 0600PM"), in
 * French `ddMMyyyy HHmm` ("01072030 1800"). Spaces between sections are ignored.
 */
export async function typeDateTime(page: Page, label: string, typed: string) {
  await page.getByRole("group", { name: label, exact: true }).getByRole("spinbutton").first().click();
  // A space would be a key of its own in the section being typed.
  await page.keyboard.type(typed.replace(/\s/g, ""));
}

/**
 * After the demo provider's "Pay": the return page says the payment is waiting for confirmation, or — when the
 * signed webhook already resolved the invoice, as the demo module's does — goes straight to the confirmation.
 */
export async function reachConfirmation(page: Page) {
  const heading = page.getByRole("heading", {
    name: /Payment received, waiting for confirmation|Thank you for your order/,
  });
  await heading.waitFor();
  if ((await heading.textContent())?.startsWith("Payment received"))
    await page.getByRole("link", { name: "View your order" }).click();
  await page.getByRole("heading", { name: "Thank you for your order" }).waitFor();
}

/** The links of the newest mail sent to `to`, read from the `.eml` files the server writes (quoted-printable decoded). */
export function mailLinks(dataDirectory: string, to: string): string[] {
  const dir = join(dataDirectory, "mail");
  // The server makes the folder with its first mail: until then there is simply no mail yet (expect.poll asks again).
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".eml"))
    .map((f) => join(dir, f))
    .sort();
  for (const file of files.reverse()) {
    const raw = readFileSync(file, "utf8");
    if (!new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "im").test(raw)) continue;
    const text = raw
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return [...new Set(text.match(/https?:\/\/[^\s"'<>]+/g) ?? [])];
  }
  return [];
}
