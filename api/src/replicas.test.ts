// More than one API process on one database (issue 16, docs/decisions/0025): two real servers on one database file,
// on each driver, sell exactly the stock between them and share the sign-in limit; `WORKERS=2` (cluster.ts) runs two
// workers on one port, prints its banner once, replaces a worker that dies and stops them all on SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, root } from "../../bench/lib.ts";
import { apiOf, buyersOf, publicEventWithArticle } from "../../bench/rush.ts";
import { useTwoApiProcesses } from "./replicas.fixtures.ts";
import { DEMO_MODERATOR } from "./seed.ts";
import { WIRE_DRIVERS } from "./test-support.ts";

const STOCK = 100;
const BUYERS = 200;
/** Wrong passwords allowed for one account from one address (RATE_RULES.loginFailuresPerAccountAndIp). */
const SIGN_IN_ALLOWANCE = 10;
/** Limits for starting servers and for the race on a machine busy with other work (nothing is timed). */
const START_LIMIT_MS = 180_000;
const RUN_LIMIT_MS = 120_000;

describe.each(WIRE_DRIVERS)("two API processes on one database (%s)", (driver) => {
  const { servers } = useTwoApiProcesses(driver, "replicas", START_LIMIT_MS);

  it(
    "sell exactly the stock to buyers spread over both, each buyer reserving on the other process",
    async () => {
      const [first, second] = servers.map((server) => apiOf(server.url));
      if (!first || !second) throw new Error("two servers expected");
      const { event, article, staff } = await publicEventWithArticle(first, "Replicas race", STOCK);
      // Half the buyers signed in on each process; each then reserves on the other one, with the token it got.
      const buyers = [
        ...(await buyersOf(first, event, BUYERS / 2)).map((buyer) => ({ ...buyer, api: second })),
        ...(await buyersOf(second, event, BUYERS / 2)).map((buyer) => ({ ...buyer, api: first })),
      ];
      const statuses = await Promise.all(
        buyers.map(async (buyer) => {
          const response = await fetch(`${buyer.api.url}/frontend/selected-nodes`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${buyer.token}` },
            body: JSON.stringify({ basket_id: buyer.basketId, node_id: article.node.id }),
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      const count = (status: number) => statuses.filter((s) => s === status).length;
      expect({ reserved: count(201), refused: count(409) }).toEqual({ reserved: STOCK, refused: BUYERS - STOCK });
      // Either process reads the same counter: the stock, no more.
      for (const api of [first, second]) {
        const limit = await api.get(`/node-limits/${article.limit.id}`, staff);
        expect(limit.reserved + limit.sold).toBe(STOCK);
      }
    },
    RUN_LIMIT_MS,
  );

  it("refuse the 11th failed sign-in for one account from one address whichever process receives it", async () => {
    const urls = servers.map((server) => `${server.url}/api/v1/auth/login`);
    const signIn = (url: string, password: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: DEMO_MODERATOR.email, password }),
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });
    // The allowance's wrong passwords, taking turns between the processes: each sees only half of them.
    const failures: number[] = [];
    for (let i = 0; i < SIGN_IN_ALLOWANCE; i++)
      failures.push(await signIn(urls[i % 2] as string, `wrong password ${i}`));
    expect(failures).toEqual(Array(SIGN_IN_ALLOWANCE).fill(400));
    // The next attempt is refused on both, before its password is checked: even the right one.
    expect(await signIn(urls[0] as string, "wrong password again")).toBe(429);
    expect(await signIn(urls[1] as string, DEMO_MODERATOR.password)).toBe(429);
  });
});

describe("WORKERS=2 npm start", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-workers-"));
  let primary: ChildProcess;
  let output = "";
  let url = "";

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    primary = spawn(process.execPath, ["--import", "tsx", join(root, "api/src/cluster.ts")], {
      cwd: root,
      // The primary says in its log when a worker takes a dead one's place.
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "info",
        WORKERS: "2",
        PORT: String(port),
        DATA_DIR: dataDir,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    // The primary's lines and its workers' (they share its output).
    for (const stream of [primary.stdout, primary.stderr])
      stream?.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
      });
    await until(() => output.includes("Ticketing is running"), "the banner");
  }, START_LIMIT_MS);

  afterAll(() => {
    if (primary.exitCode === null) primary.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves from two workers on one port, prints the banner once, and seeds the database once", async () => {
    expect(workersOf(primary)).toHaveLength(2);
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
    // Both workers have listened (the banner waits for them): a banner of theirs would be here by now.
    expect(output.match(/Ticketing is running/g)).toHaveLength(1);
    expect(output).toContain("demo data seeded, 2 workers");
    const { access_token } = await apiOf(url).post("/auth/login", {
      email: DEMO_MODERATOR.email,
      password: DEMO_MODERATOR.password,
    });
    expect(access_token).toEqual(expect.any(String));
  });

  it(
    "starts another worker when one dies",
    async () => {
      const [dead, alive] = workersOf(primary);
      process.kill(dead as number, "SIGKILL");
      await until(() => output.includes("a new worker serves in its place"), "the new worker");
      const now = workersOf(primary);
      expect(now).toHaveLength(2);
      expect(now).toContain(alive);
      expect(now).not.toContain(dead);
      expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
    },
    RUN_LIMIT_MS,
  );

  it("passes SIGTERM to its workers and exits once they have", async () => {
    const workers = workersOf(primary);
    const exited = new Promise<number | null>((resolve) => primary.once("exit", (code) => resolve(code)));
    primary.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of workers) expect(isRunning(pid)).toBe(false);
  });
});

/** The primary's child processes (Linux: /proc). */
function workersOf(primary: ChildProcess): number[] {
  const pid = primary.pid as number;
  return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
}

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for `condition`, checking it every 100 ms, failing with `what` after 100 s. */
async function until(condition: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 100_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waited 100 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
