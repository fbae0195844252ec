// Visitors arriving during a rush: 100 connections keep the server at its limit on the ticket office's welcome page,
// and 100 newcomers open their connections 2 s into it. How long each waits for its first page says whether a
// buyer who arrives late gets in at all (docs/decisions/0021: before requests took turns, most waited over 10 s).
import autocannon from "autocannon";
import { CONNECTIONS } from "./cannon.ts";
import { percentile, round, startServer } from "./lib.ts";

const PATH = "/tickets/demo";
const BUSY_SECONDS = 12;
const NEWCOMERS_AFTER_SECONDS = 2;
const NEWCOMERS_SECONDS = 8;
/** autocannon gives up on a request after this many seconds (its default is 10). */
const PATIENCE_SECONDS = 30;

export interface NewcomersFigures {
  path: string;
  /** Connections keeping the server busy, and newcomers arriving during that load. */
  busyConnections: number;
  newcomers: number;
  /** Newcomers whose first page came while they were still waiting (NEWCOMERS_SECONDS). */
  answered: number;
  firstPageP50Ms: number;
  firstPageMaxMs: number;
  /** Pages/s served to the busy connections and to the newcomers. */
  busyPagesPerSecond: number;
  newcomersPagesPerSecond: number;
}

export async function benchNewcomers(): Promise<NewcomersFigures> {
  const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos");
  try {
    const load = (connections: number, duration: number) =>
      autocannon({ url: server.url + PATH, connections, duration, timeout: PATIENCE_SECONDS }, () => {});
    const busy = load(CONNECTIONS, BUSY_SECONDS);
    const busyDone = new Promise<autocannon.Result>((resolve) => busy.on("done", resolve));
    await new Promise((resolve) => setTimeout(resolve, NEWCOMERS_AFTER_SECONDS * 1000));
    const newcomers = load(CONNECTIONS, NEWCOMERS_SECONDS);
    const firstPages = new Map<unknown, number>();
    newcomers.on("response", (client: unknown, _status: number, _bytes: number, ms: number) => {
      if (!firstPages.has(client)) firstPages.set(client, ms);
    });
    const newcomersResult = await new Promise<autocannon.Result>((resolve) => newcomers.on("done", resolve));
    const busyResult = await busyDone;
    // Newcomers still waiting when the load stopped waited at least that long.
    const waits = [...firstPages.values()];
    const unanswered = CONNECTIONS - waits.length;
    const all = [...waits, ...Array.from({ length: unanswered }, () => NEWCOMERS_SECONDS * 1000)].sort((a, b) => a - b);
    return {
      path: PATH,
      busyConnections: CONNECTIONS,
      newcomers: CONNECTIONS,
      answered: waits.length,
      firstPageP50Ms: round(percentile(all, 50), 0),
      firstPageMaxMs: round(all.at(-1) ?? 0, 0),
      busyPagesPerSecond: round(busyResult.requests.average, 0),
      newcomersPagesPerSecond: round(newcomersResult.requests.average, 0),
    };
  } finally {
    await server.stop();
  }
}

export function newcomersReport(f: NewcomersFigures): string {
  const unanswered = f.newcomers - f.answered;
  return `## Newcomers during a rush

${f.busyConnections} connections keep the server at its limit on the welcome page (\`${f.path}\`, signed out); ${NEWCOMERS_AFTER_SECONDS} s in,
${f.newcomers} newcomers open their connections and ask for the same page for ${NEWCOMERS_SECONDS} s. Their wait for a first page:

| newcomers answered | first page p50 ms | first page max ms | pages/s to the busy connections | pages/s to the newcomers |
| ---: | ---: | ---: | ---: | ---: |
| ${f.answered} / ${f.newcomers} | ${f.firstPageP50Ms} | ${f.firstPageMaxMs}${unanswered > 0 ? ` (${unanswered} still waiting at the end)` : ""} | ${f.busyPagesPerSecond} | ${f.newcomersPagesPerSecond} |
`;
}
