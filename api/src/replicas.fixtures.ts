// Two real API processes on one database (a file, or a libSQL server over the wire), for the tests of replicas
// (docs/decisions/0025): started before the describe's first test, one after the other (the first migrates and
// seeds the database, the second finds it done, as WORKERS' primary does it once before forking and a release step
// before replicas start), stopped after its last.
// Both sign and check the same tokens: the secret comes from the environment, as replicas need.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type ChildServer, startServer } from "../../bench/lib.ts";
import { type Api, apiOf } from "../../bench/rush.ts";
import { databaseFor, type TestDriver } from "./test-support.ts";

/** The describe's two processes (`servers`) and their APIs (`apis`), filled in place once started. */
export function useTwoApiProcesses(driver: TestDriver, name: string, startLimitMs = 60_000) {
  const dataDir = mkdtempSync(join(tmpdir(), `ticketing-${name}-`));
  const servers: ChildServer[] = [];
  const apis: Api[] = [];
  let stopDatabase = async () => undefined as void;
  beforeAll(async () => {
    // Over the wire, both processes reach the same libSQL server (the stand-in, in this test's process).
    const place = await databaseFor(driver, dataDir);
    stopDatabase = place.stop;
    const env = { ...place.env, SECRET_KEY: `${name}-replicas-secret-0123456789abcdef` };
    for (let i = 0; i < 2; i++) servers.push(await startServer("api/src/server.ts", "/api/v1/health", env, dataDir));
    apis.push(...servers.map((server) => apiOf(server.url)));
  }, startLimitMs);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await stopDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { servers, apis: apis as unknown as [Api, Api], dataDir };
}
