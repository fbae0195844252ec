// Sustained load with autocannon: many connections kept busy for a fixed time, the figures a load test reports.
import autocannon from "autocannon";
import { round } from "./lib.ts";

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
  const run = (duration: number) =>
    autocannon({
      url,
      connections,
      duration,
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
    });
  // A run of a fixed `amount` (each buyer once) has nothing to spare for a warm-up.
  const warmup = options.amount === undefined ? (options.warmupSeconds ?? WARMUP_SECONDS) : 0;
  const warmupResult = warmup > 0 ? await run(warmup) : null;
  const result = await run(seconds);
  const count = (r: autocannon.Result | null) => {
    const statuses: Record<string, number> = {};
    for (const [code, { count }] of Object.entries(r?.statusCodeStats ?? {})) statuses[code] = count ?? 0;
    const unexpected = Object.entries(statuses)
      .filter(([code]) => !expected.has(Number(code)))
      .reduce((sum, [, n]) => sum + n, 0);
    return { statuses, errors: unexpected + (r?.errors ?? 0) + (r?.timeouts ?? 0) };
  };
  const measured = count(result);
  const warmed = count(warmupResult);
  const answered = Object.values(measured.statuses).reduce((a, b) => a + b, 0);
  return {
    requests: answered,
    requestsPerSecond: round(answered / result.duration, 0),
    p50Ms: round(result.latency.p50),
    p99Ms: round(result.latency.p99),
    statuses: measured.statuses,
    warmupStatuses: warmed.statuses,
    errors: measured.errors + warmed.errors,
    seconds: round(result.duration, 1),
    connections,
  };
}

/** How many answers had this status. */
export const answeredWith = (figures: LoadFigures, status: number) => figures.statuses[String(status)] ?? 0;
