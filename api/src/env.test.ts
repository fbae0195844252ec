// The secrets of an installation (docs/decisions/0024): from the environment, or else made once into the database
// that every API process shares; an install from before brings the ones it kept in DATA_DIR.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, type Database, type Driver, schema } from "@ticketing/db";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig, withStoredSecrets } from "./env.ts";
import { createProduct, type Product } from "./product.ts";
import { DEMO_ORGANISER } from "./seed.ts";
import {
  createTicketCode,
  newTicketSigningKey,
  ticketKeysOf,
  verifyTicketCode,
} from "./services/tickets/ticket-codes.ts";
import { DRIVERS } from "./test-support.ts";

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});
function freshDirectory() {
  const directory = mkdtempSync(join(tmpdir(), "ticketing-secrets-"));
  directories.push(directory);
  return directory;
}

/** Two processes' connections to one new database file, migrated; each process with its own DATA_DIR. */
async function twoProcesses(driver: Driver) {
  const url = `file:${join(freshDirectory(), "ticketing.sqlite")}`;
  const processes = [0, 1].map(() => ({
    database: createDatabase({ url, driver }),
    settings: loadConfig({ DATA_DIR: freshDirectory(), DATABASE_URL: url, DB_DRIVER: driver }),
  }));
  await processes[0]?.database.migrate();
  return {
    processes: processes as [(typeof processes)[0], (typeof processes)[0]],
    async close() {
      for (const { database } of processes) await database.close();
    },
  };
}

const storedNames = async (database: Database) =>
  (await database.db.select().from(schema.instanceSecrets).all()).map((row) => row.name).sort();

describe.each(DRIVERS)("secrets from the database (%s)", (driver) => {
  it("makes them once: two processes starting together agree on the secret and the ticket key", async () => {
    const { processes, close } = await twoProcesses(driver);
    try {
      // Interleaved on better-sqlite3: both read nothing, both write, one write is kept. libSQL's local-file clients,
      // two in one process, cannot wait for each other's write lock (the wait would hold the event loop both need):
      // they take turns here; two real processes are replicas.test.ts's.
      const start = (p: (typeof processes)[0]) => withStoredSecrets(p.settings, p.database);
      const [one, two] =
        driver === "better-sqlite3"
          ? await Promise.all(processes.map(start))
          : [await start(processes[0]), await start(processes[1])];
      expect(one?.secretKey).toMatch(/^[0-9a-f]{64}$/);
      expect(two?.secretKey).toBe(one?.secretKey);
      expect(two?.ticketSigningKey).toBe(one?.ticketSigningKey);
      // A ticket signed by one process is genuine to the other; a restart finds the same secrets.
      const code = createTicketCode(ticketKeysOf(one?.ticketSigningKey ?? ""), { eventId: 1, basketId: 2, itemId: 3 });
      const again = await withStoredSecrets(processes[1].settings, processes[1].database);
      expect(verifyTicketCode(ticketKeysOf(again.ticketSigningKey), code)).toEqual({
        eventId: 1,
        basketId: 2,
        itemId: 3,
      });
      expect(again.secretKey).toBe(one?.secretKey);
    } finally {
      await close();
    }
  });

  it("carries over an install from before: the DATA_DIR files' secrets go into the database", async () => {
    const { processes, close } = await twoProcesses(driver);
    try {
      const [former, other] = processes;
      const formerSecret = "a".repeat(64);
      const formerKey = newTicketSigningKey();
      writeFileSync(join(former.settings.dataDir, "secret-key"), `${formerSecret}\n`);
      writeFileSync(join(former.settings.dataDir, "ticket-signing-key.pem"), formerKey);
      const ticket = createTicketCode(ticketKeysOf(formerKey), { eventId: 4, basketId: 5, itemId: 6 });

      const upgraded = await withStoredSecrets(former.settings, former.database);
      expect(upgraded.secretKey).toBe(formerSecret);
      // A process without those files (another machine) reads them from the database: old tickets stay valid.
      const elsewhere = await withStoredSecrets(other.settings, other.database);
      expect(elsewhere.secretKey).toBe(formerSecret);
      expect(verifyTicketCode(ticketKeysOf(elsewhere.ticketSigningKey), ticket)).toEqual({
        eventId: 4,
        basketId: 5,
        itemId: 6,
      });
    } finally {
      await close();
    }
  });

  it("takes the environment's when it gives them, and stores nothing", async () => {
    const { processes, close } = await twoProcesses(driver);
    try {
      const key = newTicketSigningKey();
      const settings = loadConfig({
        DATA_DIR: processes[0].settings.dataDir,
        SECRET_KEY: "s".repeat(40),
        // As an environment file holds it: on one line, `\n` for its line breaks.
        TICKET_SIGNING_KEY: key.trim().replace(/\n/g, "\\n"),
      });
      const config = await withStoredSecrets(settings, processes[0].database);
      expect(config.secretKey).toBe("s".repeat(40));
      expect(ticketKeysOf(config.ticketSigningKey).publicKeyPem).toBe(ticketKeysOf(key).publicKeyPem);
      expect(await storedNames(processes[0].database)).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("TICKET_SIGNING_KEY", () => {
  it("refuses what is not an Ed25519 private key, naming the variable", () => {
    const dataDir = freshDirectory();
    for (const value of ["not a key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"])
      expect(() => loadConfig({ DATA_DIR: dataDir, TICKET_SIGNING_KEY: value })).toThrow(/TICKET_SIGNING_KEY/);
  });
});

describe("SHUTDOWN_LIMIT_SECONDS", () => {
  it("gives a draining process 25 s unless told otherwise, and refuses a limit that is not whole seconds", () => {
    const dataDir = freshDirectory();
    expect(loadConfig({ DATA_DIR: dataDir }).shutdownLimitMs).toBe(25_000);
    expect(loadConfig({ DATA_DIR: dataDir, SHUTDOWN_LIMIT_SECONDS: "90" }).shutdownLimitMs).toBe(90_000);
    for (const value of ["0", "1.5", "soon"])
      expect(() => loadConfig({ DATA_DIR: dataDir, SHUTDOWN_LIMIT_SECONDS: value })).toThrow(/SHUTDOWN_LIMIT_SECONDS/);
  });
});

describe.each(DRIVERS)("two products on one database (%s)", (driver) => {
  const products: Product[] = [];
  afterAll(async () => {
    for (const product of products) await product.stop();
  });

  it("accept each other's sign-ins: a token one issued is good on the other", async () => {
    const url = `file:${join(freshDirectory(), "ticketing.sqlite")}`;
    for (let i = 0; i < 2; i++) {
      const settings = loadConfig({
        DATA_DIR: freshDirectory(),
        DATABASE_URL: url,
        DB_DRIVER: driver,
        LOG_MAILS: "false",
      });
      products.push(await createProduct(settings, { mailIntervalMs: 3_600_000 }));
    }
    const [one, two] = products;
    if (!one || !two) throw new Error("two products");
    expect(two.config.secretKey).toBe(one.config.secretKey);
    expect(two.config.ticketSigningKey).toBe(one.config.ticketSigningKey);
    const login = await one.app.request("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(DEMO_ORGANISER),
    });
    expect(login.status).toBe(200);
    const { access_token: token } = (await login.json()) as { access_token: string };
    const me = await two.app.request("/api/v1/auth/me", { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
  });
});
