// The on-sale rush over the libSQL wire (issue 32, docs/capacity.md): 1, 2 and 4 API processes on one libSQL server
// reached over HTTP (Hrana, `DATABASE_URL=http://…`: the stand-in of db/src/hrana-stand-in, in a process of its
// own), with 0 and 1 ms waited by the server before each request, as a network round trip would. Each run measures
// the reservations per second, the write lock's hold per write transaction on the server's side, and the CPU each
// process spent per reservation; the capacity model (docs/capacity.md), its constants taken from the first run,
// predicts every run beside what it measured.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { answeredWith, CONNECTIONS, cannon, type LoadFigures } from "./cannon.ts";
import { type ChildServer, freePort, root, round, startServer } from "./lib.ts";
import { addsInTurn, apiOf, BUYERS, buyersOf, LOAD_STOCK, publicEventWithArticle, unaccounted } from "./rush.ts";

/** BENCH_WIRE_PROCESSES=1 and BENCH_WIRE_DELAYS=0 run fewer (to profile one run). */
const listOf = (text: string | undefined, all: number[]) => (text ? text.split(",").map(Number) : all);
export const WIRE_PROCESSES = listOf(process.env.BENCH_WIRE_PROCESSES, [1, 2, 4]);
export const WIRE_DELAYS_MS = listOf(process.env.BENCH_WIRE_DELAYS, [0, 1]);
/** The secret every API process signs and checks tokens with, as replicas share it. */
const SECRET_KEY = "wire-bench-secret-0123456789abcdef";

/** What the stand-in measured: its write transactions and how long each held the write lock. */
export interface LockStats {
  writeTransactions: number;
  lockHeldMs: { total: number; mean: number; p50: number; p99: number; max: number };
  requests: number;
}

export interface WireRun {
  processes: number;
  delayMs: number;
  load: LoadFigures;
  reservations: number;
  reservationsPerSecond: number;
  oversold: number;
  lock: LockStats;
  /** Database requests (round trips) per reservation, as the server counted them. */
  requestsPerReservation: number;
  /**
   * CPU ms per reservation: all API processes together (all threads; `apiMain`, their main threads, where the
   * JavaScript runs), the database server, the load generator.
   */
  cpuMs: { api: number; apiMain: number; database: number; databaseMain: number; generator: number };
  /** The capacity model's reservations/s for this run, and which bound gives it. */
  predicted: { perSecond: number; bound: string };
}

export interface WireFigures {
  cores: number;
  connections: number;
  runs: WireRun[];
  ok: boolean;
}

/** CPU time so far (user + system) in ms, from /proc (Linux), of a process (all its threads) or of one thread. */
function cpuMsOf(path: string): number {
  const fields = readFileSync(path, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command's closing parenthesis; in ticks.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * A process's CPU: all its threads (JavaScript's, and the garbage collector's and libuv's helpers, which run on
 * other cores), and its main thread's alone (JavaScript runs there: one process cannot go past one core of it).
 */
const cpuOf = (pid: number) => ({
  all: cpuMsOf(`/proc/${pid}/stat`),
  main: cpuMsOf(`/proc/${pid}/task/${pid}/stat`),
});

const ownCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** The stand-in in a process of its own, on a fresh file, waiting `delayMs` before each request. */
export async function startStandIn(dataDir: string, delayMs: number) {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(root, "db/src/hrana-stand-in/main.ts"),
      "--file",
      join(dataDir, "wire.sqlite"),
      "--port",
      String(port),
      "--delay-ms",
      String(delayMs),
    ],
    { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the stand-in exited with ${child.exitCode}`);
    if ((await fetch(`${url}/stand-in/stats`).catch(() => null))?.ok) break;
    if (Date.now() > deadline) throw new Error("the stand-in did not start within 30 s");
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    url,
    pid: child.pid as number,
    stats: async () => (await (await fetch(`${url}/stand-in/stats`)).json()) as LockStats,
    reset: () => fetch(`${url}/stand-in/stats/reset`, { method: "POST" }),
    stop: () =>
      new Promise<void>((done) => {
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}

/** The constants the model takes from a run: CPU per reservation of each part, the lock's hold. */
export interface ModelConstants {
  cores: number;
  apiCpuMs: number;
  apiMainCpuMs: number;
  databaseCpuMs: number;
  databaseMainCpuMs: number;
  generatorCpuMs: number;
  lockHoldMs: number;
  requestsPerReservation: number;
  connections: number;
}

/**
 * The capacity model of docs/capacity.md for one event: reservations/s is the least of what each part allows.
 * An API process runs JavaScript on one core; the stand-in too (sqld spreads its requests over threads); the machine's
 * cores are shared by every process of the run; the write lock serialises write transactions; and each of the
 * `connections` buyers in flight waits at least the round trips' delay per reservation.
 */
export function predict(c: ModelConstants, processes: number, delayMs: number) {
  const bounds: [string, number][] = [
    [`${processes} API process(es), one JavaScript thread each`, (processes * 1000) / c.apiMainCpuMs],
    ["the database server's one thread", 1000 / c.databaseMainCpuMs],
    [`the machine's ${c.cores} cores`, (c.cores * 1000) / (c.apiCpuMs + c.databaseCpuMs + c.generatorCpuMs)],
    ["the write lock", 1000 / c.lockHoldMs],
  ];
  if (delayMs > 0)
    bounds.push(["the connections' round trips", (c.connections * 1000) / (c.requestsPerReservation * delayMs)]);
  const [bound, perSecond] = bounds.reduce((least, next) => (next[1] < least[1] ? next : least));
  return { perSecond: Math.round(perSecond), bound };
}

async function rushOverTheWire(processes: number, delayMs: number): Promise<Omit<WireRun, "predicted">> {
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-wire-"));
  const standIn = await startStandIn(dataDir, delayMs);
  const servers: ChildServer[] = [];
  try {
    const env = { DATABASE_URL: standIn.url, DB_DRIVER: "libsql", SECRET_KEY };
    // One after the other: the first migrates and seeds, the others find it done (as replicas after a release step).
    for (let i = 0; i < processes; i++)
      servers.push(await startServer("api/src/server.ts", "/api/v1/health", env, dataDir));
    const api = apiOf(servers[0]?.url as string);
    const { event, article, staff } = await publicEventWithArticle(api, "Rush over the wire", LOAD_STOCK);
    const buyers = await buyersOf(api, event, BUYERS);
    await standIn.reset();
    const cpuBefore = {
      api: servers.map((s) => cpuOf(s.process.pid as number)),
      db: cpuOf(standIn.pid),
      own: ownCpuMs(),
    };
    // The connections spread over the processes, as a load balancer would; every buyer may reach any of them.
    const add = addsInTurn(buyers, article.node.id);
    const loads = await Promise.all(
      servers.map((server) =>
        cannon(server.url, add, { expected: [201], connections: Math.round(CONNECTIONS / processes) }),
      ),
    );
    const cpuAfter = {
      api: servers.map((s) => cpuOf(s.process.pid as number)),
      db: cpuOf(standIn.pid),
      own: ownCpuMs(),
    };
    const lock = await standIn.stats();
    const load = combine(loads);
    const reservations = answeredWith(load, 201);
    const limit = await api.get(`/node-limits/${article.limit.id}`, staff);
    const oversold = unaccounted(limit.reserved + limit.sold, load);
    const answered = reservations + (load.warmupStatuses["201"] ?? 0);
    // The CPU and the server's counts cover the warm-up and the run: per reservation of both.
    const all = Math.max(1, answered);
    const apiCpu = (thread: "all" | "main") =>
      cpuAfter.api.reduce((sum, after, i) => sum + after[thread] - (cpuBefore.api[i]?.[thread] ?? 0), 0);
    return {
      processes,
      delayMs,
      load,
      reservations,
      reservationsPerSecond: round(reservations / load.seconds, 0),
      oversold,
      lock,
      requestsPerReservation: round(lock.requests / all, 1),
      cpuMs: {
        api: round(apiCpu("all") / all, 3),
        apiMain: round(apiCpu("main") / all, 3),
        database: round((cpuAfter.db.all - cpuBefore.db.all) / all, 3),
        databaseMain: round((cpuAfter.db.main - cpuBefore.db.main) / all, 3),
        generator: round((cpuAfter.own - cpuBefore.own) / all, 3),
      },
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await standIn.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The loads of parallel cannons as one: answers added, latencies' percentiles the worst of them. */
function combine(loads: LoadFigures[]): LoadFigures {
  const add = (pick: (load: LoadFigures) => Record<string, number>) => {
    const sum: Record<string, number> = {};
    for (const load of loads) for (const [code, n] of Object.entries(pick(load))) sum[code] = (sum[code] ?? 0) + n;
    return sum;
  };
  const seconds = Math.max(...loads.map((load) => load.seconds));
  const requests = loads.reduce((sum, load) => sum + load.requests, 0);
  return {
    requests,
    requestsPerSecond: round(requests / seconds, 0),
    p50Ms: Math.max(...loads.map((load) => load.p50Ms)),
    p99Ms: Math.max(...loads.map((load) => load.p99Ms)),
    statuses: add((load) => load.statuses),
    warmupStatuses: add((load) => load.warmupStatuses),
    errors: loads.reduce((sum, load) => sum + load.errors, 0),
    seconds,
    connections: loads.reduce((sum, load) => sum + load.connections, 0),
  };
}

export async function benchWire(): Promise<WireFigures> {
  const cores = availableParallelism();
  const measured: Omit<WireRun, "predicted">[] = [];
  for (const delayMs of WIRE_DELAYS_MS)
    for (const processes of WIRE_PROCESSES) measured.push(await rushOverTheWire(processes, delayMs));
  // The model's constants come from the first run (one process, no delay); it predicts all of them.
  const first = measured[0] as Omit<WireRun, "predicted">;
  const constants: ModelConstants = {
    cores,
    apiCpuMs: first.cpuMs.api,
    apiMainCpuMs: first.cpuMs.apiMain,
    databaseCpuMs: first.cpuMs.database,
    databaseMainCpuMs: first.cpuMs.databaseMain,
    generatorCpuMs: first.cpuMs.generator,
    lockHoldMs: first.lock.lockHeldMs.mean,
    requestsPerReservation: first.requestsPerReservation,
    connections: CONNECTIONS,
  };
  const runs = measured.map((run) => ({ ...run, predicted: predict(constants, run.processes, run.delayMs) }));
  return {
    cores,
    connections: CONNECTIONS,
    runs,
    ok: runs.every((run) => run.load.errors === 0 && run.oversold === 0),
  };
}

export function wireReport(f: WireFigures): string {
  const rows = f.runs
    .map(
      (r) =>
        `| ${r.processes} | ${r.delayMs} | ${r.reservationsPerSecond} | ${r.predicted.perSecond} (${r.predicted.bound}) | ${r.load.p50Ms} | ${r.load.p99Ms} | ${r.lock.lockHeldMs.mean} / ${r.lock.lockHeldMs.p99} | ${r.requestsPerReservation} | ${r.cpuMs.api} (${r.cpuMs.apiMain}) / ${r.cpuMs.database} (${r.cpuMs.databaseMain}) / ${r.cpuMs.generator} | ${r.load.errors} | ${r.oversold} |`,
    )
    .join("\n");
  return `## On-sale rush over the libSQL wire

The rush of rush.ts (${BUYERS} buyers adding the same article, ${f.connections} connections spread over the processes,
each for the same time) against 1, 2 and 4 API processes on one libSQL server reached over HTTP (Hrana, the stand-in
of db/src/hrana-stand-in in a process of its own, on SQLite), waiting 0 and 1 ms before each database request as a
network round trip would. The lock's hold is measured by the server: from a write transaction's BEGIN to its end (an
add is one batch: BEGIN, the guarded statements, COMMIT, in one request). CPU per reservation from /proc, for all API
processes together, the database server, and the load generator (this machine has ${f.cores} cores for all of them).
The prediction is the capacity model's (docs/capacity.md), its constants taken from the first run.

| API processes | ms per round trip | reservations/s | model | p50 ms | p99 ms | lock held ms, mean / p99 | DB requests per reservation | CPU ms per reservation (main threads): API / DB / load | errors | oversold |
| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows}
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchWire();
  console.log(wireReport(figures));
}
