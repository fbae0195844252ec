// `npm run bench`: every benchmark in one run, figures printed and written to bench/results/ (latest.md, and a JSON
// file per run). Run `npm run build` first: the pages and the back office are measured as built.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ADMIN_FIRST_VISIT_AIM_KB, adminReport, benchAdmin } from "./admin.ts";
import { CONNECTIONS, SECONDS, WARMUP_SECONDS } from "./cannon.ts";
import { benchCheckout, checkoutReport } from "./checkout.ts";
import { benchExports, exportsReport } from "./exports.ts";
import { root, round } from "./lib.ts";
import { benchNewcomers, newcomersReport } from "./newcomers.ts";
import { benchOrderWire, orderWireReport } from "./order-wire.ts";
import { benchPages, PAGE_RATIO_AIM, pagesReport } from "./pages.ts";
import { benchRoomRush, ROOM_RUSH_RATIO_AIM, roomRushReport } from "./room-rush.ts";
import {
  benchRush,
  PRODUCT_WORKERS,
  RUSH_P99_AIM_TIMES_REFERENCE,
  RUSH_RATIO_AIM,
  rushIsCorrect,
  rushP99IsMet,
  rushReport,
} from "./rush.ts";
import { benchStatements, statementsReport } from "./statements.ts";
import { benchTree, TREE_RATIO_AIM, treeReport } from "./tree.ts";
import { benchWaitingRoom, waitingRoomReport } from "./waiting-room.ts";
import { benchWire, wireReport } from "./wire.ts";

const startedAt = new Date().toISOString();
console.log("On-sale rush: the product, the race, the bare reference…");
const rush = await benchRush();
console.log("The rush over the libSQL wire: 1, 2 and 4 API processes, 0 and 1 ms per round trip…");
const wire = await benchWire();
console.log("A whole order over the libSQL wire: write transactions and lock held per step…");
const orderWire = await benchOrderWire();
console.log("SQL statements and CPU per request…");
const statements = await benchStatements();
console.log("The ticket-office pages…");
const pages = await benchPages();
console.log("Newcomers during a rush…");
const newcomers = await benchNewcomers();
console.log("The waiting room: arrivals before and after the opening, the order, the room's page…");
const waitingRoom = await benchWaitingRoom();
console.log("The rush with the waiting room off and on…");
const roomRush = await benchRoomRush();
console.log("The buyer's tree of 1,000 articles…");
const tree = await benchTree();
console.log("Checkout…");
const checkout = await benchCheckout();
console.log("The back office's first visit…");
const admin = await benchAdmin();
console.log("The exports of 50,000 sold items…");
const exportFigures = await benchExports();

const adminKb = Math.round(admin.transferredBytes / 1024);
const glance: [string, string, string, boolean][] = [
  [
    "add-to-basket / reference (reservations/s)",
    `≥ ${RUSH_RATIO_AIM}`,
    String(rush.ratio),
    rush.ratio >= RUSH_RATIO_AIM,
  ],
  [
    `add-to-basket p99 at ${CONNECTIONS} connections`,
    `≤ ${RUSH_P99_AIM_TIMES_REFERENCE}× the reference's`,
    `${rush.product.p99Ms} ms (reference ${rush.reference.p99Ms} ms)`,
    rushP99IsMet(rush),
  ],
  [
    `add-to-basket with WORKERS=${PRODUCT_WORKERS} / reference; p99`,
    `≥ ${RUSH_RATIO_AIM}; ≤ ${RUSH_P99_AIM_TIMES_REFERENCE}×`,
    `${rush.workersRatio}; ${rush.productWorkers.p99Ms} ms`,
    rush.workersRatio >= RUSH_RATIO_AIM &&
      rush.productWorkers.p99Ms <= RUSH_P99_AIM_TIMES_REFERENCE * rush.reference.p99Ms,
  ],
  [
    "add-to-basket errors / oversold",
    "0 / 0",
    `${rush.product.errors + rush.productWorkers.errors} / ${rush.product.oversold + rush.productWorkers.oversold}`,
    rush.product.errors + rush.productWorkers.errors === 0 &&
      rush.product.oversold + rush.productWorkers.oversold === 0,
  ],
  [
    `race: ${rush.race.buyers} buyers at once, stock ${rush.race.stock}`,
    `${rush.race.stock} reserved`,
    String(rush.race.reserved),
    rush.race.reserved === rush.race.stock,
  ],
  [
    `rush over the libSQL wire, ${wire.runs.length} runs: errors / oversold`,
    "0 / 0",
    `${wire.runs.reduce((sum, run) => sum + run.load.errors, 0)} / ${wire.runs.reduce((sum, run) => sum + run.oversold, 0)}`,
    wire.ok,
  ],
  ...pages.pages.map((p): [string, string, string, boolean] => [
    `${p.page} page / static file`,
    `≥ ${PAGE_RATIO_AIM}`,
    String(p.ratio),
    p.ratio >= PAGE_RATIO_AIM,
  ]),
  [
    `waiting room: later arrivals admitted in arrival order (of ${waitingRoom.later})`,
    "1",
    String(round(waitingRoom.laterOrder.inOrderShare, 4)),
    waitingRoom.laterOrder.inOrderShare === 1,
  ],
  [
    `waiting room: early arrivals' pairs kept in order (a draw, ${waitingRoom.early})`,
    `${waitingRoom.shuffleBand[0]}–${waitingRoom.shuffleBand[1]}`,
    `${round(waitingRoom.earlyOrder.keptShare, 4)} (tau ${round(waitingRoom.earlyOrder.kendallTau, 4)})`,
    waitingRoom.earlyOrder.keptShare >= waitingRoom.shuffleBand[0] &&
      waitingRoom.earlyOrder.keptShare <= waitingRoom.shuffleBand[1],
  ],
  [
    "waiting room: places/s before / after the opening",
    "0 errors",
    `${waitingRoom.placesBefore.perSecond} / ${waitingRoom.placesAfter.perSecond}, ${waitingRoom.placesBefore.errors + waitingRoom.placesAfter.errors} errors`,
    waitingRoom.placesBefore.errors + waitingRoom.placesAfter.errors === 0,
  ],
  [
    "waiting-room page / static file (same server; bare reference)",
    `≥ ${PAGE_RATIO_AIM}`,
    `${waitingRoom.page.sameServerRatio}; ${waitingRoom.page.referenceRatio}`,
    waitingRoom.page.sameServerRatio >= PAGE_RATIO_AIM,
  ],
  [
    "add-to-basket with the waiting room on / off (everyone admitted)",
    `≥ ${ROOM_RUSH_RATIO_AIM}`,
    String(roomRush.ratio),
    roomRush.ratio >= ROOM_RUSH_RATIO_AIM,
  ],
  ["buyer's tree / plain SELECT", `≤ ${TREE_RATIO_AIM}`, String(tree.ratio), tree.ratio <= TREE_RATIO_AIM],
  [
    "/admin first visit, compressed JavaScript",
    `< ${ADMIN_FIRST_VISIT_AIM_KB} KB`,
    `${adminKb} KB`,
    adminKb < ADMIN_FIRST_VISIT_AIM_KB,
  ],
];

const report = `# Benchmark results (${startedAt})

## How to read this

- Every figure comes from this one run on this machine; the machine is noisy, so compare the **ratios** (the product
  against its reference measured just before or after it), not the absolute figures of two runs.
- Load figures come from autocannon: ${CONNECTIONS} connections kept busy for ${SECONDS} s (after ${WARMUP_SECONDS} s of the same load on the same
  connections, not counted), each sending its next request as soon as the last is answered. requests/s is answers over the run's seconds; p50 / p99 are latencies as the client
  measured them (with ${CONNECTIONS} requests always in flight, a server answering N per second keeps each waiting
  about ${CONNECTIONS}/N s on average). These are figures of a steady load: a burst of new connections on a busy
  server waits longer (docs/decisions/0021). An error is a socket error, a timeout or an answer with another status
  than expected.
- The servers run as \`npm start\` runs them (NODE_ENV=production, better-sqlite3 on a fresh data folder with the demo
  data), in a child process; the load generator shares the machine's cores with them.
- \`BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"\` profiles the servers;
  \`BENCH_CONNECTIONS\`, \`BENCH_SECONDS\` and \`BENCH_WARMUP_SECONDS\` change the load; \`BENCH_QUICK=1\` makes the
  waiting room's benches small and short (\`npx tsx bench/waiting-room.ts --quick\` runs them alone).

## At a glance

| | aim | measured | met |
| --- | --- | --- | --- |
${glance.map(([name, aim, measured, met]) => `| ${name} | ${aim} | ${measured} | ${met ? "yes" : "**no**"} |`).join("\n")}

${rushReport(rush)}
${wireReport(wire)}
${orderWireReport(orderWire)}
${statementsReport(statements)}
${pagesReport(pages)}
${newcomersReport(newcomers)}
${waitingRoomReport(waitingRoom)}
${roomRushReport(roomRush)}
${treeReport(tree)}
${checkoutReport(checkout)}
${adminReport(admin)}
${exportsReport(exportFigures)}`;
console.log(`\n${report}`);
const dir = join(root, "bench/results");
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "latest.md"), report);
writeFileSync(
  join(dir, `${startedAt.slice(0, 19).replace(/[:T]/g, "-")}.json`),
  `${JSON.stringify(
    {
      startedAt,
      rush,
      wire,
      orderWire,
      statements,
      pages,
      newcomers,
      waitingRoom,
      roomRush,
      tree,
      checkout,
      admin,
      exports: exportFigures,
    },
    null,
    2,
  )}\n`,
);
if (!rushIsCorrect(rush) || !wire.ok || checkout.product.errors > 0) {
  console.error("Oversold, a failed request, or a race that did not reserve exactly the stock: the benchmark fails.");
  process.exitCode = 1;
}
if (!waitingRoom.ok || !roomRush.ok) {
  console.error(
    "A waiting-room place refused or failed, an admission out of order or out of turn, or a rush error: the benchmark fails.",
  );
  process.exitCode = 1;
}
if (!exportFigures.ok) {
  console.error("An export has the wrong row count or grew the server by 100 MB or more: the benchmark fails.");
  process.exitCode = 1;
}
