// `npm start`'s entry (scripts/start.mjs). One process by default; with WORKERS=n, n processes on one port of one
// machine (node:cluster: the primary hands each new connection to the workers in turn). Each worker is the whole
// server (server.ts) on the one database, where the state replicas share lives (docs/decisions/0024, 0025).
import cluster, { type Worker } from "node:cluster";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type EnvConfig, loadConfigOrExit } from "./env.ts";
import { log } from "./lib/log.ts";
import { prepareDatabase } from "./product.ts";
import { banner, WORKER_READY } from "./started.ts";

async function runPrimary(config: EnvConfig, workers: number) {
  // Migrations and the demo data once, before any worker starts, so that n processes do not race on them. (The
  // secrets the environment leaves out are the database's, stored by whichever worker comes first: env.ts.)
  const { database, seeded } = await prepareDatabase(config);
  await database.close();

  cluster.setupPrimary({ exec: join(dirname(fileURLToPath(import.meta.url)), "server.ts") });
  const live = new Set<Worker>();
  /** Workers that have served: their product ready, not just the port open (server.ts sends WORKER_READY). */
  const ready = new Set<Worker>();
  let bannerShown = false;
  let stopping = false;
  let exitCode = 0;

  const fork = () => live.add(cluster.fork());
  const stop = (signal: NodeJS.Signals | null) => {
    if (stopping) return;
    stopping = true;
    // Each worker drains on its own (server.ts): it stops accepting, answers what it holds, then closes.
    if (signal) for (const worker of live) worker.process.kill(signal);
    if (live.size === 0) process.exit(exitCode);
  };

  cluster.on("message", (worker, message) => {
    if (message !== WORKER_READY) return;
    ready.add(worker);
    if (bannerShown) log.info({ worker: worker.process.pid }, "a new worker serves in its place");
    else if (ready.size === workers) {
      bannerShown = true;
      console.log(banner(config, seeded, workers));
    }
  });
  cluster.on("exit", (worker, code, signal) => {
    live.delete(worker);
    if (stopping) {
      // One still loading when the signal came has no handler yet: the signal ends it, as it should.
      if (code !== 0 && signal !== "SIGTERM") exitCode = 1;
      if (live.size === 0) process.exit(exitCode);
      return;
    }
    const how = signal ?? `exit code ${code}`;
    // One that never served failed at start (a taken port, an unreachable database): another would fail the same.
    if (!ready.has(worker)) {
      log.error({ worker: worker.process.pid, exit: how }, "a worker could not start: stopping");
      exitCode = 1;
      stop("SIGTERM");
      return;
    }
    log.warn({ worker: worker.process.pid, exit: how }, "a worker stopped: starting another");
    fork();
  });

  // A stop (an orchestrator's SIGTERM) reaches the primary alone: it passes it on and waits for every worker.
  process.on("SIGTERM", () => stop("SIGTERM"));
  // Ctrl-C reaches every process of the terminal's foreground group, the workers included: passing it on would be
  // their second signal, which ends a worker at once instead of letting it drain.
  process.on("SIGINT", () => stop(null));

  for (let i = 0; i < workers; i++) fork();
}

const config = loadConfigOrExit();
// One process: the server itself, as before WORKERS existed.
if (config.workers === 1) await import("./server.ts");
else await runPrimary(config, config.workers);
