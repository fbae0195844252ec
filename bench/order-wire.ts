// A whole order over the libSQL wire (issue 32, docs/capacity.md "1,000,000 tickets in 10 minutes"): one API process
// on the Hrana stand-in (in a process of its own, 0 ms per round trip) walks quiet orders of two tickets through the
// API as the ticket office calls it for a buyer's browser, and counts each step's write transactions and how long
// they held the database's write lock. The lock is what one database cannot share between API processes: its total
// per order caps the orders a second of one event, however many processes there are.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BILLING, buyerHeaders, median, nextBuyerAddress, round, startServer } from "./lib.ts";
import { type Api, apiOf, publicEventWithArticle } from "./rush.ts";
import { startStandIn } from "./wire.ts";

/** The first orders warm the process up; the last is shown, the median beside it. */
const ORDERS = Number(process.env.BENCH_ORDER_WIRE_ORDERS ?? 6);
/** After the answers, the work left (the confirmation mail) has settled once no write came for this long. */
const QUIET_MS = 1_000;
const SETTLE_DEADLINE_MS = 20_000;
/** The mail worker's beat (api/src/services/mail/delivery.ts): it claims due mails every 5 s, none due or not. */
const BEAT_MS = 5_000;
const SECRET_KEY = "order-wire-bench-secret-0123456789abcdef";

export const ORDER_STEPS = [
  "guest sign-in",
  "opening the basket",
  "two adds",
  "billing information",
  "checkout",
  "the payment's answer",
  "the confirmation mail and the work left after the answers",
] as const;

export interface StepFigures {
  step: (typeof ORDER_STEPS)[number];
  writeTransactions: number;
  /** The write lock's hold, all the step's write transactions together. */
  lockHeldMs: number;
}

export interface OrderWireFigures {
  orders: number;
  /** The last order's steps, and the median of each step over all orders. */
  last: StepFigures[];
  median: StepFigures[];
  total: { writeTransactions: number; lockHeldMs: number };
  medianTotal: { writeTransactions: number; lockHeldMs: number };
  /** Each order's steps, in the order they were made. */
  all: StepFigures[][];
  /** What the lock allows at the last order's total: 1000 / lock ms per order, and twice that in tickets. */
  ordersPerSecond: number;
  ticketsPerSecond: number;
  /** What the idle process writes at each beat of its mail worker (every BEAT_MS), null if nothing. */
  beat: { writeTransactions: number; lockHeldMs: number } | null;
}

type StandIn = Pick<Awaited<ReturnType<typeof startStandIn>>, "stats" | "reset">;

/** Waits until the stand-in has seen no new write transaction for QUIET_MS (the mail worker done), or throws. */
async function settled(standIn: StandIn) {
  const deadline = Date.now() + SETTLE_DEADLINE_MS;
  let seen = (await standIn.stats()).writeTransactions;
  let quietSince = Date.now();
  while (Date.now() - quietSince < QUIET_MS) {
    if (Date.now() > deadline) throw new Error(`writes still coming after ${SETTLE_DEADLINE_MS} ms`);
    await new Promise((done) => setTimeout(done, 100));
    const now = (await standIn.stats()).writeTransactions;
    if (now !== seen) {
      seen = now;
      quietSince = Date.now();
    }
  }
}

/**
 * Waits for the API process's next beat of background writes and its end (nothing written for 300 ms), and answers
 * what it wrote; null when nothing was written for a beat and a second. An order started just after a beat is over
 * before the next one (it takes about 1.5 s with its mail), so that no beat is counted as one of its steps.
 */
async function nextBeat(standIn: StandIn) {
  await standIn.reset();
  const deadline = Date.now() + BEAT_MS + 1_000;
  let stats = await standIn.stats();
  while (stats.writeTransactions === 0) {
    if (Date.now() > deadline) return null;
    await new Promise((done) => setTimeout(done, 50));
    stats = await standIn.stats();
  }
  for (let seen = -1; seen !== stats.writeTransactions; ) {
    seen = stats.writeTransactions;
    await new Promise((done) => setTimeout(done, 300));
    stats = await standIn.stats();
  }
  return { writeTransactions: stats.writeTransactions, lockHeldMs: round(stats.lockHeldMs.total, 1) };
}

/** One order of two tickets, the ticket office's calls in a browser's order; each step's writes counted. */
async function order(
  url: string,
  api: Api,
  standIn: StandIn,
  event: { id: number; registration_module_id: number },
  nodeId: number,
): Promise<StepFigures[]> {
  const steps: StepFigures[] = [];
  const measure = async (step: StepFigures["step"], work: () => Promise<void>) => {
    await standIn.reset();
    await work();
    const stats = await standIn.stats();
    steps.push({ step, writeTransactions: stats.writeTransactions, lockHeldMs: stats.lockHeldMs.total });
  };
  const address = nextBuyerAddress();
  let token = "";
  let basketId = 0;
  let paymentPath = "";
  // The login page's action (routes/tickets/$path/login): a guest sign-in from the buyer's address.
  await measure("guest sign-in", async () => {
    const login = await api.post(
      "/auth/anonymous-login",
      { active_module_id: event.registration_module_id, is_testing: false },
      undefined,
      buyerHeaders(address),
    );
    token = login.access_token;
  });
  // The buy page's first add (lib/baskets.server.ts openBasketForAdding): the open basket, else a new one.
  await measure("opening the basket", async () => {
    await api.get(`/frontend/baskets?event_id=${event.id}&testing=false`, token);
    basketId = (await api.post("/frontend/baskets", { event_id: event.id, testing: false }, token)).id;
  });
  await measure("two adds", async () => {
    for (let i = 0; i < 2; i++)
      await api.post("/frontend/selected-nodes", { basket_id: basketId, node_id: nodeId, quantity: 1 }, token);
  });
  await measure("billing information", async () => {
    await api.post("/frontend/billing-information", { basket_id: basketId, ...BILLING }, token);
  });
  // The payment-method page's action: online payment, the terms accepted; the answer leads to the provider's page.
  await measure("checkout", async () => {
    const result = await api.post(
      `/frontend/baskets/${basketId}/checkout`,
      { payment_method: "online", terms_accepted: true },
      token,
    );
    const paymentUrl = new URL(result.payment_url);
    paymentPath = paymentUrl.pathname + paymentUrl.search;
  });
  // The demo provider's page: "pay" posts its form, which sends the signed verdict and the buyer back (303).
  await measure("the payment's answer", async () => {
    const page = new URL(paymentPath, url);
    const answer = await fetch(new URL(page.pathname, url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ sig: page.searchParams.get("sig") ?? "", outcome: "success" }),
      redirect: "manual",
    });
    if (answer.status !== 303 || !answer.headers.get("location")?.includes("/success"))
      throw new Error(`the demo payment answered ${answer.status} to ${answer.headers.get("location")}`);
  });
  await measure("the confirmation mail and the work left after the answers", () => settled(standIn));
  return steps;
}

const totalOf = (steps: StepFigures[]) => ({
  writeTransactions: steps.reduce((sum, s) => sum + s.writeTransactions, 0),
  lockHeldMs: round(
    steps.reduce((sum, s) => sum + s.lockHeldMs, 0),
    1,
  ),
});

export async function benchOrderWire(): Promise<OrderWireFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-order-wire-"));
  const standIn = await startStandIn(dataDir, 0);
  const server = await startServer(
    "api/src/server.ts",
    "/api/v1/health",
    { DATABASE_URL: standIn.url, DB_DRIVER: "libsql", SECRET_KEY },
    dataDir,
  );
  try {
    const api = apiOf(server.url);
    const { event, article } = await publicEventWithArticle(api, "An order over the wire", 1_000_000);
    await settled(standIn);
    const beat = await nextBeat(standIn);
    const orders: StepFigures[][] = [];
    for (let i = 0; i < ORDERS; i++) {
      // The last order's writes are done (its last step waits for them); the next starts just after a beat.
      if (beat) await nextBeat(standIn);
      orders.push(await order(server.url, api, standIn, event, article.node.id));
    }
    const last = orders.at(-1) as StepFigures[];
    const medians = ORDER_STEPS.map((step, i) => ({
      step,
      writeTransactions: median(orders.map((steps) => steps[i]?.writeTransactions ?? 0)),
      lockHeldMs: median(orders.map((steps) => steps[i]?.lockHeldMs ?? 0)),
    }));
    const total = totalOf(last);
    const perSecond = total.lockHeldMs > 0 ? 1000 / total.lockHeldMs : Number.POSITIVE_INFINITY;
    return {
      orders: ORDERS,
      last,
      median: medians,
      total,
      medianTotal: totalOf(medians),
      all: orders,
      beat,
      ordersPerSecond: round(perSecond, 0),
      ticketsPerSecond: round(perSecond * 2, 0),
    };
  } finally {
    await server.stop();
    await standIn.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function orderWireReport(f: OrderWireFigures): string {
  const ms = (value: number) => `${round(value, 1)} ms`;
  const rows = f.last
    .map((s, i) => {
      const m = f.median[i] as StepFigures;
      return `| ${s.step} | ${s.writeTransactions} | ${ms(s.lockHeldMs)} | ${m.writeTransactions} | ${ms(m.lockHeldMs)} |`;
    })
    .join("\n");
  return `## A whole order over the libSQL wire

${f.orders} quiet orders of two tickets, one after the other, through one API process on the stand-in (0 ms per
round trip), each step called as the ticket office calls the API for a buyer's browser: guest sign-in, opening the
basket, two adds of one ticket, billing information, checkout for online payment, the demo provider's "pay" (its
signed verdict), then the confirmation mail and whatever else writes until nothing has for ${QUIET_MS / 1000} s. The
stand-in counts each step's write transactions and how long they held its write lock (all of them together);
the median is each step's over the orders (the first ones warm the process up), its total their sum.

| step | write transactions (last order) | lock held | write transactions (median) | lock held (median) |
| --- | ---: | ---: | ---: | ---: |
${rows}
| **an order of two tickets** | **${f.total.writeTransactions}** | **${ms(f.total.lockHeldMs)}** | **${f.medianTotal.writeTransactions}** | **${ms(f.medianTotal.lockHeldMs)}** |

Each order's write transactions and lock held, in turn: ${f.all
    .map((steps) => {
      const total = totalOf(steps);
      return `${total.writeTransactions} / ${ms(total.lockHeldMs)}`;
    })
    .join("; ")}.

${
  f.beat
    ? `With nothing to do, the API process writes ${f.beat.writeTransactions} transaction(s) holding ${ms(f.beat.lockHeldMs)} every ${BEAT_MS / 1000} s (its mail worker claiming due mails and checking for gone workers): a process's cost, not an order's. Each order starts just after one of these beats, so that none is counted in its steps.`
    : `With nothing to do, the API process wrote nothing for ${BEAT_MS / 1000 + 1} s.`
}

At ${ms(f.total.lockHeldMs)} of lock per order (the last), one database takes at most **${f.ordersPerSecond} orders
(${f.ticketsPerSecond} tickets) a second** of one event, whatever the number of API processes.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(orderWireReport(await benchOrderWire()));
}
