// `npm run bench`: every benchmark in one run, figures printed and written to bench/results/.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchBuyPage } from "./buy-page.ts";
import { benchExports, exportsReport } from "./exports.ts";
import { root, round } from "./lib.ts";
import { rushProduct, rushReference } from "./rush.ts";
import { benchTree } from "./tree.ts";

const startedAt = new Date().toISOString();
console.log("On-sale rush: the product (real server, better-sqlite3)…");
const product = await rushProduct();
console.log("On-sale rush: the bare reference…");
const reference = await rushReference();
const ratio = round(product.reservationsPerSecond / reference.reservationsPerSecond, 3);
console.log("The buyer's tree of 1,000 articles…");
const tree = await benchTree();
console.log("The buy page…");
const page = await benchBuyPage();
console.log("The exports of 50,000 sold items…");
const exportFigures = await benchExports();

const table = [
  "| | reservations/s | requests/s | p50 ms | p99 ms | reserved | refused 409 | errors | oversold |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...[
    ["product", product],
    ["reference", reference],
  ].map(
    ([name, f]) =>
      `| ${name} | ${(f as typeof product).reservationsPerSecond} | ${(f as typeof product).requestsPerSecond} | ${(f as typeof product).p50Ms} | ${(f as typeof product).p99Ms} | ${(f as typeof product).reservations} | ${(f as typeof product).refusals} | ${(f as typeof product).errors} | ${(f as typeof product).oversold} |`,
  ),
].join("\n");
const report = `# Benchmark results (${startedAt})

## On-sale rush

${product.buyers} concurrent buyers per round (each with their own frontend login and basket) add the same article of
stock ${product.stock}; ${product.rounds} rounds. Product = the real server (auth, validation, pricing, guarded stock
counter, better-sqlite3); reference = a minimal Hono server doing a one-row SQLite reservation without auth.

${table}

**product / reference (reservations per second): ${ratio}** (aim ≥ 0.25)

## The buyer's tree

\`GET /frontend/events/:id/tree\` of an event with ${tree.articles} articles, through the real server, against a plain
\`SELECT\` of the same nodes with their configurations from the same database file (${tree.samples} samples each).

| | median ms |
| --- | ---: |
| tree (first call, catalogue not cached) | ${tree.firstTreeMs} |
| tree (median) | ${tree.treeMedianMs} |
| plain SELECT (median) | ${tree.selectMedianMs} |

**tree / SELECT: ${tree.ratio}** (${tree.treeBytes} bytes of JSON)

## The buy page

The demo event's buy page for a guest, against a static HTML file of the same content served by the same server.

| | bytes | gzip | median ms |
| --- | ---: | ---: | ---: |
| HTML | ${page.htmlBytes} | ${page.htmlGzipBytes} | ${page.pageMedianMs} |
| the same HTML as a static file | ${page.htmlBytes} | ${page.htmlGzipBytes} | ${page.staticMedianMs} |
| JavaScript (${page.scripts} files, all optional: every step works without it) | | ${page.javascriptGzipBytes} | |

**page / static: ${page.ratio}**; JavaScript budget (< 100 KB gzip): ${page.withinBudget ? "met" : "NOT met"}

${exportsReport(exportFigures)}`;
console.log(`\n${report}`);
const dir = join(root, "bench/results");
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "latest.md"), report);
writeFileSync(
  join(dir, `${startedAt.slice(0, 19).replace(/[:T]/g, "-")}.json`),
  `${JSON.stringify({ startedAt, rush: { product, reference, ratio }, tree, page, exports: exportFigures }, null, 2)}\n`,
);
if (product.oversold > 0 || reference.oversold > 0 || product.errors > 0) {
  console.error("Oversold or failed requests: the benchmark fails.");
  process.exitCode = 1;
}
if (!exportFigures.ok) {
  console.error("An export has the wrong row count or grew the server by 100 MB or more: the benchmark fails.");
  process.exitCode = 1;
}
