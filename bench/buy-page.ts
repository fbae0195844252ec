// Issue 5: the demo event's buy page as a guest sees it — HTML bytes, JavaScript bytes (gzip) it ships and the
// median server time — beside a static HTML file of the same content served by the same server.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { median, root, round, startServer } from "./lib.ts";

const SAMPLES = Number(process.env.PAGE_SAMPLES ?? 40);
const JS_BUDGET_BYTES = 100 * 1024;

export interface PageFigures {
  htmlBytes: number;
  htmlGzipBytes: number;
  scripts: number;
  javascriptGzipBytes: number;
  withinBudget: boolean;
  pageMedianMs: number;
  staticMedianMs: number;
  ratio: number;
}

async function timeGet(url: string, headers: Record<string, string> = {}) {
  const start = performance.now();
  const response = await fetch(url, { headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${url}`);
  return { ms: performance.now() - start, text };
}

export async function benchBuyPage(): Promise<PageFigures> {
  const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos");
  const staticDir = join(root, "storefront/build/client/__bench");
  try {
    // Sign in as a guest the way a browser without JavaScript does: a form post, then the cookie.
    const login = await fetch(`${server.url}/tickets/demo/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "anonymous", nextUrl: "/tickets/demo/buy" }),
    });
    const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
    if (!cookie) throw new Error(`no session cookie after the guest login (${login.status})`);
    const page = `${server.url}/tickets/demo/buy`;
    const first = await timeGet(page, { cookie });
    if (!first.text.includes("Day pass")) throw new Error("the buy page does not show the demo articles");
    const html = first.text;
    // Every script the page loads: <script src>, module preloads, and modules imported by inline scripts.
    const scripts = [
      ...new Set(
        [
          ...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g),
          ...html.matchAll(/(?:import|from)\s*(?:\* as \w+ from\s*)?"(\/[^"]+\.js)"/g),
        ].map((m) => m[1] as string),
      ),
    ];
    let javascriptGzipBytes = 0;
    for (const src of scripts)
      javascriptGzipBytes += gzipSync(await (await fetch(new URL(src, server.url))).arrayBuffer()).length;
    // Inline module scripts (the router's context) count too.
    for (const inline of html.matchAll(/<script(?![^>]*src)[^>]*>([\s\S]*?)<\/script>/g))
      javascriptGzipBytes += gzipSync(inline[1] ?? "").length;
    mkdirSync(staticDir, { recursive: true });
    writeFileSync(join(staticDir, "buy.html"), html);
    const pageTimes: number[] = [];
    const staticTimes: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      pageTimes.push((await timeGet(page, { cookie })).ms);
      staticTimes.push((await timeGet(`${server.url}/__bench/buy.html`)).ms);
    }
    const pageMedianMs = median(pageTimes);
    const staticMedianMs = median(staticTimes);
    return {
      htmlBytes: Buffer.byteLength(html),
      htmlGzipBytes: gzipSync(html).length,
      scripts: scripts.length,
      javascriptGzipBytes,
      withinBudget: javascriptGzipBytes < JS_BUDGET_BYTES,
      pageMedianMs: round(pageMedianMs),
      staticMedianMs: round(staticMedianMs),
      ratio: round(pageMedianMs / staticMedianMs, 1),
    };
  } finally {
    rmSync(staticDir, { recursive: true, force: true });
    await server.stop();
  }
}
