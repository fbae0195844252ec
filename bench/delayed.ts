// The on-sale rush over a slow database (issue 16, ADR 0026): the rush of rush.ts against the real server on libSQL,
// once as it is and once with 1 ms waited before every database round trip, as a libSQL server across a network
// would cost. A hot write that made several round trips holding the write lock would be capped near
// 1000 / (round trips) reservations/s by the delay alone; one round trip each keeps the delayed rate near the other.
import { startServer } from "./lib.ts";
import { loadProduct, type RushLoad } from "./rush.ts";

/** The delay per round trip of the delayed run, in ms (docs/design.md §2: "at 1 ms round trip"). */
export const ROUND_TRIP_DELAY_MS = 1;

export interface DelayedRushFigures {
  undelayed: RushLoad;
  delayed: RushLoad;
  delayMs: number;
}

/** The rush on a fresh libSQL server process, with `delayMs` waited before each of its database round trips. */
async function rushWithDelay(delayMs: number): Promise<RushLoad> {
  const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos", {
    DB_DRIVER: "libsql",
    DB_ROUND_TRIP_DELAY_MS: String(delayMs),
  });
  try {
    return await loadProduct(server.url);
  } finally {
    await server.stop();
  }
}

export async function benchDelayedRush(): Promise<DelayedRushFigures> {
  const undelayed = await rushWithDelay(0);
  const delayed = await rushWithDelay(ROUND_TRIP_DELAY_MS);
  return { undelayed, delayed, delayMs: ROUND_TRIP_DELAY_MS };
}

export function delayedRushReport(f: DelayedRushFigures): string {
  const row = (name: string, l: RushLoad) =>
    `| ${name} | ${l.reservationsPerSecond} | ${l.p50Ms} | ${l.p99Ms} | ${l.reservations} | ${l.errors} | ${l.oversold} |`;
  const share = f.undelayed.reservationsPerSecond
    ? Math.round((100 * f.delayed.reservationsPerSecond) / f.undelayed.reservationsPerSecond)
    : 0;
  return `## On-sale rush over a slow database (libSQL, ${f.delayMs} ms per round trip)

The rush above against the real server on libSQL (\`DB_DRIVER=libsql\`), once as it is and once waiting ${f.delayMs} ms
before every database round trip (\`DB_ROUND_TRIP_DELAY_MS\`), as a libSQL server across a network would. Each add
to a basket holds the write lock for one round trip (ADR 0026).

| | reservations/s | p50 ms | p99 ms | reservations | errors | oversold |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${row("undelayed", f.undelayed)}
${row(`${f.delayMs} ms per round trip`, f.delayed)}

**With ${f.delayMs} ms per round trip: ${f.delayed.reservationsPerSecond} reservations/s, ${share} % of the undelayed ${f.undelayed.reservationsPerSecond}.**
`;
}
