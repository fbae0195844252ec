// The waiting room (issue 30, docs/decisions/0037) against a real server: 10,000 arrivals on an event whose room is
// on, 1,000 before the opening and 9,000 after it. Each signs in as a guest from an address of their own (its device
// cookie kept, as a browser does) and takes a place; the places given per second before and after the opening, the
// admission order against the arrival order (a queue after the opening, a shuffle before it, every early place ahead
// of every later one, positions 1..n each once, the admitted ones exactly the first), and the room page's cost
// (waiting-room-page.ts). `BENCH_QUICK=1` or `--quick`: 1,000 arrivals and 3 s loads, for a quick check.
// Runs alone (`npx tsx bench/waiting-room.ts`, with the room's rush, room-rush.ts) or from `npm run bench`.
import { pathToFileURL } from "node:url";
import { DEVICE_COOKIE_PREFIX } from "@ticketing/shared/device-cookies";
import { type Arrival, admissionOrder, isGapless, type OrderFigures } from "./admission-order.ts";
import { CONNECTIONS } from "./cannon.ts";
import {
  buyerHeaders,
  type ChildServer,
  json,
  nextBuyerAddress,
  percentile,
  QUICK,
  round,
  startServer,
} from "./lib.ts";
import { benchRoomRush, roomRushReport } from "./room-rush.ts";
import { apiOf, publicEventWithArticle } from "./rush.ts";
import { benchRoomPage, type RoomPageFigures } from "./waiting-room-page.ts";

const ARRIVALS = Number(process.env.WAITING_ROOM_ARRIVALS ?? (QUICK ? 1_000 : 10_000));
const EARLY = Math.round(ARRIVALS / 10);
/** Slow enough that the last arrivals still wait while the page is measured (the default rate). */
const RATE_PER_MINUTE = 100;
const PAGE_GUESTS = QUICK ? 10 : 50;
const PAGE_LOAD = QUICK ? { seconds: 3, warmupSeconds: 1 } : {};

interface Guest {
  token: string;
  address: string;
  /** The ticket office's device cookie the sign-in gave (`name=value`). */
  device: string;
}

interface Answer {
  status: number;
  sentAt: number;
  answeredAt: number;
  body: { state?: string; position?: number | null };
}

export interface PhaseFigures {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers with another status than expected. */
  errors: number;
}

export interface WaitingRoomFigures {
  arrivals: number;
  early: number;
  later: number;
  concurrency: number;
  /** Requests in flight at a time before the opening. */
  earlyConcurrency: number;
  ratePerMinute: number;
  signIns: PhaseFigures;
  placesBefore: PhaseFigures;
  placesAfter: PhaseFigures;
  /** Every buyer reading their place once, after the arrivals. */
  reads: PhaseFigures;
  earlyOrder: OrderFigures;
  laterOrder: OrderFigures;
  /** The band a shuffle's kept share falls in (5 standard deviations of Kendall's tau for that many early places). */
  shuffleBand: [number, number];
  earlyAheadOfLater: boolean;
  /** Positions 1..arrivals, each once. */
  gapless: boolean;
  /** Places whose state disagrees with the room's admitted positions (admitted beyond them, or waiting within). */
  admissionMismatches: number;
  admittedPositions: number;
  page: RoomPageFigures;
  ok: boolean;
}

/** Runs `work` on every item, `concurrency` at a time, each worker taking the next item: answers in item order. */
async function inTurn<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** A request timed as the client saw it. */
async function timed(url: string, init: RequestInit): Promise<Answer> {
  const sentAt = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, sentAt, answeredAt: performance.now(), body: text ? JSON.parse(text) : {} };
}

/** Requests/s over the phase's span and the client's latencies; answers with another status are errors. */
function phaseOf(answers: Answer[], expected: number[]): PhaseFigures {
  const start = Math.min(...answers.map((a) => a.sentAt));
  const end = Math.max(...answers.map((a) => a.answeredAt));
  const latencies = answers.map((a) => a.answeredAt - a.sentAt).sort((a, b) => a - b);
  return {
    requests: answers.length,
    perSecond: round(answers.length / ((end - start) / 1000), 0),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    errors: answers.filter((a) => !expected.includes(a.status)).length,
  };
}

const deviceOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .find((pair) => pair.startsWith(DEVICE_COOKIE_PREFIX)) ?? "";

/** A guest sign-in from an address of its own: a new browser, so the API gives it a device cookie. */
async function signIn(url: string, moduleId: number): Promise<Guest & { answer: Answer }> {
  const address = nextBuyerAddress();
  const sentAt = performance.now();
  const response = await fetch(`${url}/api/v1/auth/anonymous-login`, {
    method: "POST",
    headers: { "content-type": "application/json", ...buyerHeaders(address) },
    body: JSON.stringify({ active_module_id: moduleId }),
  });
  const body = await json(response);
  const answer = { status: response.status, sentAt, answeredAt: performance.now(), body };
  return { token: body.access_token, address, device: deviceOf(response), answer };
}

/** The guest's place in the event's room: taken (POST) or read (GET), from their address and browser. */
const placeRequest = (url: string, eventId: number, guest: Guest, method: "POST" | "GET") =>
  timed(`${url}/api/v1/frontend/waiting-room${method === "GET" ? `?event_id=${eventId}` : ""}`, {
    method,
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${guest.token}`,
      cookie: guest.device,
      ...buyerHeaders(guest.address),
    },
    body: method === "POST" ? JSON.stringify({ event_id: eventId }) : undefined,
  });

/** Within 5 standard deviations of Kendall's tau of `n` shuffled items, as a share of pairs kept in order. */
function shuffleBand(n: number): [number, number] {
  const sigma = Math.sqrt((2 * (2 * n + 5)) / (9 * n * (n - 1)));
  return [round(0.5 - (5 * sigma) / 2, 3), round(0.5 + (5 * sigma) / 2, 3)];
}

async function arrivalsOn(server: ChildServer): Promise<Omit<WaitingRoomFigures, "page" | "ok"> & { office: string }> {
  const url = server.url;
  const api = apiOf(url);
  const { event, staff } = await publicEventWithArticle(api, "Waiting room", 1_000_000);
  const room = `/events/${event.id}/waiting-room`;
  const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
  await api.put(room, { opens_at: inAnHour, rate_per_minute: RATE_PER_MINUTE, admission_minutes: 10 }, staff);
  const concurrency = CONNECTIONS;
  const guests = await inTurn(
    Array.from({ length: ARRIVALS }, (_, i) => i),
    concurrency,
    () => signIn(url, event.registration_module_id),
  );
  const take = (guest: Guest) => placeRequest(url, event.id, guest, "POST");
  // Fewer at a time before the opening (a tenth of the early arrivals at most): arrivals in flight together have no
  // known order, and the draw's shuffle is measured on the pairs that have one.
  const earlyConcurrency = Math.max(1, Math.min(concurrency, Math.floor(EARLY / 10)));
  const before = await inTurn(guests.slice(0, EARLY), earlyConcurrency, take);
  await api.post(`${room}/open-now`, {}, staff);
  const after = await inTurn(guests.slice(EARLY), concurrency, take);
  const admittedFirst = (await api.get(room, staff)).admitted_positions as number;
  const reads = await inTurn(guests, concurrency, (guest) => placeRequest(url, event.id, guest, "GET"));
  const admittedLast = (await api.get(room, staff)).admitted_positions as number;

  const positions = reads.map((read) => read.body.position ?? Number.NaN);
  const arrivals = (answers: Answer[], offset: number): Arrival[] =>
    answers.map((answer, i) => ({ ...answer, position: positions[offset + i] as number }));
  const earlyPositions = positions.slice(0, EARLY);
  const laterPositions = positions.slice(EARLY);
  // Admitted are exactly the first positions: within what the room had admitted before the reads, admitted (or a
  // turn that lapsed); beyond what it had admitted after them, waiting.
  const admissionMismatches = reads.filter((read) => {
    const { position, state } = read.body;
    if (typeof position !== "number") return true;
    if (position <= admittedFirst) return state !== "admitted" && state !== "lapsed";
    return position > admittedLast && state !== "waiting";
  }).length;
  const figures = {
    office: `/tickets/${event.frontend_path}`,
    arrivals: ARRIVALS,
    early: EARLY,
    later: ARRIVALS - EARLY,
    concurrency,
    earlyConcurrency,
    ratePerMinute: RATE_PER_MINUTE,
    signIns: phaseOf(
      guests.map((g) => g.answer),
      [201],
    ),
    placesBefore: phaseOf(before, [201]),
    placesAfter: phaseOf(after, [201]),
    reads: phaseOf(reads, [200]),
    earlyOrder: admissionOrder(arrivals(before, 0)),
    laterOrder: admissionOrder(arrivals(after, EARLY)),
    shuffleBand: shuffleBand(EARLY),
    earlyAheadOfLater: Math.max(...earlyPositions) < Math.min(...laterPositions),
    gapless: isGapless(positions),
    admissionMismatches,
    admittedPositions: admittedLast,
  };
  const earlyWithoutPlace = before.filter((answer) => answer.body.state !== "before_opening").length;
  if (earlyWithoutPlace > 0) throw new Error(`${earlyWithoutPlace} early arrivals were not told to wait for the draw`);
  return figures;
}

export async function benchWaitingRoom(): Promise<WaitingRoomFigures> {
  const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos");
  try {
    const { office, ...figures } = await arrivalsOn(server);
    const page = await benchRoomPage(server, office, PAGE_GUESTS, PAGE_LOAD);
    const [low, high] = figures.shuffleBand;
    const ok =
      [figures.signIns, figures.placesBefore, figures.placesAfter, figures.reads].every((p) => p.errors === 0) &&
      figures.laterOrder.keptShare === 1 &&
      figures.laterOrder.inOrderShare === 1 &&
      figures.earlyOrder.keptShare >= low &&
      figures.earlyOrder.keptShare <= high &&
      figures.earlyAheadOfLater &&
      figures.gapless &&
      figures.admissionMismatches === 0 &&
      page.page.errors === 0;
    return { ...figures, page, ok };
  } finally {
    await server.stop();
  }
}

const phaseRow = (name: string, p: PhaseFigures) =>
  `| ${name} | ${p.requests} | ${p.perSecond} | ${p.p50Ms} | ${p.p99Ms} | ${p.errors} |`;
const loadCells = (f: RoomPageFigures["page"]) => `${f.requestsPerSecond} | ${f.p50Ms} | ${f.p99Ms} | ${f.errors}`;
const share = (value: number) => round(value, 4);

export function waitingRoomReport(f: WaitingRoomFigures): string {
  const p = f.page;
  return `## Waiting room: ${f.arrivals.toLocaleString("en")} arrivals

An event whose waiting room is on (${f.ratePerMinute} buyers a minute). ${f.arrivals} guests sign in, each from an address
of their own (\`X-Forwarded-For\` through the trusted loopback) keeping the device cookie it gives; ${f.early} take a
place before the opening, the organiser opens the room now, ${f.later} take one after it; then each reads their place.
${f.concurrency} requests in flight at a time (${f.earlyConcurrency} before the opening); figures as the client saw them.

| | requests | per s | p50 ms | p99 ms | errors |
| --- | ---: | ---: | ---: | ---: | ---: |
${phaseRow("guest sign-ins", f.signIns)}
${phaseRow("places before the opening", f.placesBefore)}
${phaseRow("places after the opening", f.placesAfter)}
${phaseRow("places read", f.reads)}

Admission order against arrival order (positions are the admission order; two arrivals are in a known order when one
was answered before the other was sent):

| arrivals | pairs in a known order | pairs kept in order | Kendall's tau | arrivals behind all known earlier ones |
| --- | ---: | ---: | ---: | ---: |
| ${f.early} before the opening | ${f.earlyOrder.orderedPairs} | ${share(f.earlyOrder.keptShare)} | ${share(f.earlyOrder.kendallTau)} | ${share(f.earlyOrder.inOrderShare)} |
| ${f.later} after the opening | ${f.laterOrder.orderedPairs} | ${share(f.laterOrder.keptShare)} | ${share(f.laterOrder.kendallTau)} | ${share(f.laterOrder.inOrderShare)} |

**After the opening, in arrival order: ${share(f.laterOrder.inOrderShare)}** (must be 1). **Before it, pairs kept: ${share(f.earlyOrder.keptShare)}**
(a shuffle: ${f.shuffleBand[0]}–${f.shuffleBand[1]}). Every early place ahead of every later one: ${f.earlyAheadOfLater ? "yes" : "**no**"}.
Positions 1..${f.arrivals} each once: ${f.gapless ? "yes" : "**no**"}. Places whose state disagrees with the ${f.admittedPositions} admitted positions: ${f.admissionMismatches}.

The room's page (\`${p.path}\`) as ${p.guests} waiting guests (signed in with the login form, their place taken by
the page) reload it in turn, beside the same HTML (${round(p.htmlBytes / 1024, 1)} KB, ${round(p.htmlGzipBytes / 1024, 1)} KB gzip) as a static file of the same
server and of the bare reference (a Hono server answering it from memory):

| | per s | p50 ms | p99 ms | errors |
| --- | ---: | ---: | ---: | ---: |
| waiting-room page | ${loadCells(p.page)} |
| static file, same server | ${loadCells(p.sameServerStatic)} |
| static file, bare reference | ${loadCells(p.referenceStatic)} |

**Page / static file: ${p.sameServerRatio} (same server), ${p.referenceRatio} (bare reference).** The page reloads itself
(a \`Refresh\` header): ${p.reloadsItself ? "yes" : "**no**"}.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchWaitingRoom();
  console.log(`\n${waitingRoomReport(figures)}`);
  const rush = await benchRoomRush();
  console.log(roomRushReport(rush));
  console.log(JSON.stringify({ waitingRoom: figures, roomRush: rush }, null, 2));
  if (!figures.ok || !rush.ok) {
    console.error("A place refused or failed, an order broken, or an admission out of turn: the benchmark fails.");
    process.exitCode = 1;
  }
}
