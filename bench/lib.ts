// Shared pieces of the benchmarks: child servers on free ports, timing and percentiles.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { get } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const root = new URL("..", import.meta.url).pathname;

/** `BENCH_QUICK=1` or `--quick`: the benches that know it run smaller and shorter, for a quick check. */
export const QUICK = process.env.BENCH_QUICK === "1" || process.argv.includes("--quick");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export interface ChildServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a TypeScript server file with its own port and data folder (a new one, or `dataDir` to start again on
 * the data an earlier server left); resolves once `readyPath` answers. The bench's loopback is its trusted proxy
 * (TRUSTED_PROXIES, unless `env` sets it): each buyer's `X-Forwarded-For` (`buyerHeaders`) is their address.
 */
export async function startServer(
  file: string,
  readyPath: string,
  env: Record<string, string> = {},
  dataDir: string = mkdtempSync(join(tmpdir(), "ticketing-bench-")),
): Promise<ChildServer> {
  const port = await freePort();
  // BENCH_SERVER_ARGS passes Node flags to the servers, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them.
  const nodeArgs = (process.env.BENCH_SERVER_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", join(root, file)], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_MAILS: "false",
      TRUSTED_PROXIES: "127.0.0.1,::1",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${file} exited with ${child.exitCode}`);
    try {
      const response = await fetch(url + readyPath);
      if (response.status < 500) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${file} did not start within 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * Resolves once every process of a server started with several (node:cluster, which hands each new connection to
 * the next process) answers `path` below 500: `count` answers in a row, each on a connection of its own. One that
 * is still starting answers 503.
 */
export async function allProcessesReady(url: string, path: string, count = 16) {
  const deadline = Date.now() + 60_000;
  const status = () =>
    new Promise<number>((resolve) =>
      get(url + path, { agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on("error", () => resolve(0)),
    );
  for (let inARow = 0; inARow < count; ) {
    inARow = (await status()) < 500 ? inARow + 1 : 0;
    if (inARow === 0) {
      if (Date.now() > deadline) throw new Error(`${url} did not have all its processes ready within 60 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

let buyersMade = 0;
/**
 * The next bench buyer's own address (10.0.0.0/8, a new one each call in this process): guest sign-ins and
 * waiting-room places are limited per address (docs/decisions/0036), and real buyers come from many.
 */
export function nextBuyerAddress() {
  buyersMade += 1;
  return `10.${(buyersMade >> 16) & 255}.${(buyersMade >> 8) & 255}.${buyersMade & 255}`;
}

/**
 * Headers that make a request come from `address`: `X-Forwarded-For` through the trusted loopback proxy of a server
 * `startServer` started, `X-Real-IP` for the product called in-process (no socket, as statements.ts does).
 */
export const buyerHeaders = (address: string) => ({ "x-forwarded-for": address, "x-real-ip": address });

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

export async function json(response: Response) {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${response.url}: ${text}`);
  return text ? JSON.parse(text) : null;
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The billing details every bench buyer gives (the API's snake_case wire form). */
export const BILLING = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.org",
  address: "1 Analytical Street",
  postal_code: "1000",
  city: "Lausanne",
  country: "Switzerland",
};
