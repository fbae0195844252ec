// Sustained load with autocannon: many connections kept busy for a fixed time, the figures a load test reports.
import autocannon from "autocannon";
import { percentile, round } from "./lib.ts";

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Load before the measured run, not counted: the servers' JIT and caches warm, as in a rush's first seconds. */
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);

export interface LoadFigures {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Answers of the warm-up by status code (not in the other figures, which are the run's). */
  warmupStatuses: Record<string, number>;
  /** Socket errors, timeouts and answers outside `expected`, in the warm-up and the run. */
  errors: number;
  seconds: number;
  connections: number;
}

export interface Shot {
  method?: "GET" | "POST" | "PUT";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Gives a request; called for every request, so that each can be a different buyer. */
export type Step = (context: Record<string, unknown>) => Shot;

/**
 * Drives `url` with `connections` connections for `seconds` seconds (or until `amount` requests); `steps` gives
 * each request, or a sequence every connection goes through in turn (sharing a `context`, e.g. the buyer the
 * first step chose). Answers whose status is not in `expected` count as errors.
 */
export async function cannon(
  url: string,
  steps: Step | Step[],
  options: {
    expected?: number[];
    connections?: number;
    seconds?: number;
    amount?: number;
    warmupSeconds?: number;
  } = {},
): Promise<LoadFigures> {
  const expected = new Set(options.expected ?? [200]);
  const connections = options.connections ?? CONNECTIONS;
  const seconds = options.seconds ?? SECONDS;
  // A run of a fixed `amount` (each buyer once) has nothing to spare for a warm-up.
  const warmup = options.amount === undefined ? (options.warmupSeconds ?? WARMUP_SECONDS) : 0;
  // One run whose first `warmup` seconds are not counted: the connections opened for the warm-up carry the
  // measured load. A second run would open 100 new connections on a server already at its limit, and Node accepts
  // them a few a second there (docs/decisions/0021): their first answers would measure that, not the steady load.
  const phases = { warmup: { statuses: {} as Record<string, number>, errors: 0 }, run: emptyRun() };
  let measuring = warmup === 0;
  let started = 0;
  const instance = autocannon(
    {
      url,
      connections,
      duration: warmup + seconds,
      amount: options.amount,
      requests: (Array.isArray(steps) ? steps : [steps]).map((step) => ({
        setupRequest: (request: autocannon.Request, context: object) => {
          const shot = step(context as Record<string, unknown>);
          return {
            ...request,
            method: shot.method ?? "GET",
            path: shot.path,
            headers: { ...shot.headers },
            body: shot.body,
          };
        },
      })),
    },
    () => {},
  );
  const startMeasuring = () => {
    measuring = true;
    started = performance.now();
  };
  if (measuring) startMeasuring();
  const warmupTimer = measuring ? undefined : setTimeout(startMeasuring, warmup * 1000);
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    const phase = measuring ? phases.run : phases.warmup;
    phase.statuses[statusCode] = (phase.statuses[statusCode] ?? 0) + 1;
    if (measuring) phases.run.latencies.push(responseTime);
  });
  instance.on("reqError", () => {
    (measuring ? phases.run : phases.warmup).errors++;
  });
  await new Promise((resolve) => instance.on("done", resolve));
  clearTimeout(warmupTimer);
  const duration = (performance.now() - started) / 1000;
  const unexpected = (statuses: Record<string, number>) =>
    Object.entries(statuses)
      .filter(([code]) => !expected.has(Number(code)))
      .reduce((sum, [, n]) => sum + n, 0);
  const { statuses, latencies, errors } = phases.run;
  const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
  latencies.sort((a, b) => a - b);
  return {
    requests: answered,
    requestsPerSecond: round(answered / duration, 0),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    statuses,
    warmupStatuses: phases.warmup.statuses,
    errors: unexpected(statuses) + errors + unexpected(phases.warmup.statuses) + phases.warmup.errors,
    seconds: round(duration, 1),
    connections,
  };
}

const emptyRun = () => ({ statuses: {} as Record<string, number>, errors: 0, latencies: [] as number[] });

/** How many answers had this status. */
export const answeredWith = (figures: LoadFigures, status: number) => figures.statuses[String(status)] ?? 0;
