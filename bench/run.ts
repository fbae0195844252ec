// `npm run bench`: every benchmark in one run, figures printed and written to bench/results/.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root, round } from "./lib.ts";
import { rushProduct, rushReference } from "./rush.ts";

const startedAt = new Date().toISOString();
console.log("On-sale rush: the product (real server, better-sqlite3)…");
const product = await rushProduct();
console.log("On-sale rush: the bare reference…");
const reference = await rushReference();
const ratio = round(product.reservationsPerSecond / reference.reservationsPerSecond, 3);

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
`;
console.log(`\n${report}`);
const dir = join(root, "bench/results");
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "latest.md"), report);
writeFileSync(
  join(dir, `${startedAt.slice(0, 19).replace(/[:T]/g, "-")}.json`),
  `${JSON.stringify({ startedAt, rush: { product, reference, ratio } }, null, 2)}\n`,
);
if (product.oversold > 0 || reference.oversold > 0 || product.errors > 0) {
  console.error("Oversold or failed requests: the benchmark fails.");
  process.exitCode = 1;
}
