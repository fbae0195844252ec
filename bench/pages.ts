// Issue 15: the ticket office's welcome, buy and payment-method pages under sustained load (autocannon), each
// beside the same HTML written as a static file and served by the same server, in one run. Guests sign in the way
// a browser without JavaScript does (form posts, the session cookie) and take turns, so that no page is served
// from one visitor's state; the payment-method page is that of a guest whose basket holds an article and has its
// billing information. The JavaScript budget line of issue 5 stays: the gzip bytes of the scripts a page loads.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { CONNECTIONS, cannon, type LoadFigures, SECONDS } from "./cannon.ts";
import { buyerHeaders, type ChildServer, nextBuyerAddress, root, round, startServer } from "./lib.ts";

const GUESTS = Number(process.env.BENCH_GUESTS ?? 50);
const JS_BUDGET_BYTES = 100 * 1024;
/** Each page at least this share of the same HTML served as a static file (issue 15). */
export const PAGE_RATIO_AIM = 0.25;
const OFFICE = "/tickets/demo";

const ALL_PAGES = [
  { name: "welcome", path: OFFICE, shows: "Buy tickets" },
  { name: "buy", path: `${OFFICE}/buy`, shows: "Day pass" },
  { name: "payment-method", path: `${OFFICE}/checkout/payment-method`, shows: "Day pass" },
] as const;
// BENCH_PAGES=buy,welcome measures only those pages (to profile one page at a time).
const PAGES = ALL_PAGES.filter(
  (page) => !process.env.BENCH_PAGES || process.env.BENCH_PAGES.split(",").includes(page.name),
);

export interface PageLoad {
  page: string;
  path: string;
  htmlBytes: number;
  htmlGzipBytes: number;
  product: LoadFigures;
  static: LoadFigures;
  /** Pages/s over static files/s. */
  ratio: number;
}

export interface PagesFigures {
  guests: number;
  connections: number;
  seconds: number;
  pages: PageLoad[];
  /** Scripts the buy page loads and their gzip bytes (module preloads, imports, inline scripts). */
  scripts: number;
  javascriptGzipBytes: number;
  withinBudget: boolean;
  ok: boolean;
}

const cookieOf = (response: Response) =>
  (response.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");

/**
 * A form post as a browser without JavaScript sends it (from `headers`' address, if any); the answer must be a
 * redirect (the form went through).
 */
async function postForm(
  server: ChildServer,
  path: string,
  cookie: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const response = await fetch(server.url + path, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}), ...headers },
    body: new URLSearchParams(fields),
  });
  if (response.status !== 302) throw new Error(`${response.status} for the form posted to ${path}`);
  return response;
}

async function getPage(server: ChildServer, path: string, cookie: string) {
  const response = await fetch(server.url + path, { headers: { cookie }, redirect: "manual" });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${response.status} ${path}`);
  return text;
}

/**
 * A guest whose basket holds one day pass and has its billing information: signed in with the login form, the
 * article added with the buy page's form, the billing form filled in. Answers the session cookie.
 */
async function prepareGuest(server: ChildServer, n: number): Promise<string> {
  // Each guest from an address of their own: guest sign-ins are limited per address.
  const login = await postForm(
    server,
    `${OFFICE}/login`,
    "",
    { intent: "anonymous", nextUrl: `${OFFICE}/buy` },
    buyerHeaders(nextBuyerAddress()),
  );
  const cookie = cookieOf(login);
  if (!cookie) throw new Error(`no session cookie after the guest login (${login.status})`);
  const buy = await getPage(server, `${OFFICE}/buy`, cookie);
  const dayPass = buy.match(/Day pass[\s\S]*?name="nodeId" value="(\d+)"/)?.[1];
  if (!dayPass) throw new Error("the buy page shows no form to add a day pass");
  await postForm(server, `${OFFICE}/buy`, cookie, { nodeId: dayPass, quantity: "1" });
  await postForm(server, `${OFFICE}/checkout/billing-information`, cookie, {
    firstName: "Guest",
    lastName: `Number ${n}`,
    email: `guest-${n}@example.test`,
    address: "1 Bench Street",
    postalCode: "1000",
    city: "Lausanne",
    country: "Switzerland",
  });
  return cookie;
}

/** Every script the page loads: <script src>, module preloads, modules imported by inline scripts, inline scripts. */
async function javascriptOf(server: ChildServer, html: string) {
  const scripts = [
    ...new Set(
      [
        ...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g),
        ...html.matchAll(/(?:import|from)\s*(?:\* as \w+ from\s*)?"(\/[^"]+\.js)"/g),
      ].map((m) => m[1] as string),
    ),
  ];
  let gzipBytes = 0;
  for (const src of scripts) gzipBytes += gzipSync(await (await fetch(new URL(src, server.url))).arrayBuffer()).length;
  for (const inline of html.matchAll(/<script(?![^>]*src)[^>]*>([\s\S]*?)<\/script>/g))
    gzipBytes += gzipSync(inline[1] ?? "").length;
  return { scripts: scripts.length, gzipBytes };
}

export async function benchPages(): Promise<PagesFigures> {
  const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos");
  const staticDir = join(root, "storefront/build/client/__bench");
  try {
    const cookies: string[] = [];
    for (let n = 0; n < GUESTS; n++) cookies.push(await prepareGuest(server, n));
    let turn = 0;
    const nextGuest = () => cookies[turn++ % cookies.length] as string;
    mkdirSync(staticDir, { recursive: true });
    const pages: PageLoad[] = [];
    let javascript = { scripts: 0, gzipBytes: 0 };
    for (const { name, path, shows } of PAGES) {
      const html = await getPage(server, path, nextGuest());
      if (!html.includes(shows)) throw new Error(`${path} does not show "${shows}"`);
      if (name === "buy") javascript = await javascriptOf(server, html);
      writeFileSync(join(staticDir, `${name}.html`), html);
      const product = await cannon(server.url, () => ({ path, headers: { cookie: nextGuest() } }), {
        warmupSeconds: 2,
      });
      const staticFile = await cannon(server.url, () => ({ path: `/__bench/${name}.html` }), { warmupSeconds: 2 });
      pages.push({
        page: name,
        path,
        htmlBytes: Buffer.byteLength(html),
        htmlGzipBytes: gzipSync(html).length,
        product,
        static: staticFile,
        ratio: round(product.requestsPerSecond / staticFile.requestsPerSecond),
      });
    }
    const withinBudget = javascript.gzipBytes < JS_BUDGET_BYTES;
    return {
      guests: GUESTS,
      connections: CONNECTIONS,
      seconds: SECONDS,
      pages,
      scripts: javascript.scripts,
      javascriptGzipBytes: javascript.gzipBytes,
      withinBudget,
      ok:
        withinBudget &&
        pages.every((p) => p.product.errors === 0 && p.static.errors === 0 && p.ratio >= PAGE_RATIO_AIM),
    };
  } finally {
    rmSync(staticDir, { recursive: true, force: true });
    await server.stop();
  }
}

const loadCells = (f: LoadFigures) => `${f.requestsPerSecond} | ${f.p50Ms} | ${f.p99Ms} | ${f.errors}`;

export function pagesReport(f: PagesFigures): string {
  const rows = f.pages.map(
    (p) =>
      `| ${p.page} (\`${p.path}\`) | ${round(p.htmlBytes / 1024, 1)} / ${round(p.htmlGzipBytes / 1024, 1)} | ${loadCells(p.product)} | ${loadCells(p.static)} | ${p.ratio} |`,
  );
  return `## Ticket-office pages

Each page as ${f.guests} guests (signed in with the login form, as a browser without JavaScript; one day pass in the
basket and its billing information given) see it in turn, ${f.connections} connections for ${f.seconds} s, beside the
same HTML written as a static file and served by the same server right after. Read the ratio: pages/s over files/s.

| page | HTML KB / gzip KB | pages/s | p50 ms | p99 ms | errors | static/s | p50 ms | p99 ms | errors | page / static |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join("\n")}

**Each page ≥ ${PAGE_RATIO_AIM} of its static file (aim): ${f.pages.map((p) => `${p.page} ${p.ratio}`).join(", ")}**.
**JavaScript the buy page loads (aim < ${JS_BUDGET_BYTES / 1024} KB gzip): ${round(f.javascriptGzipBytes / 1024, 1)} KB in ${f.scripts} scripts**${f.withinBudget ? "" : " — OVER BUDGET"}.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchPages();
  console.log(`\n${pagesReport(figures)}`);
  console.log(JSON.stringify(figures, null, 2));
  if (!figures.ok) {
    console.error("A page under its aim, errors, or JavaScript over budget: the benchmark fails.");
    process.exitCode = 1;
  }
}
