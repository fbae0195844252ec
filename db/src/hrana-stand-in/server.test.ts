// The Hrana stand-in answers the real @libsql/client as a libSQL server would: values, batches and transactions
// all-or-nothing, sqld's error codes, concurrent writers serialised with the lock's holding time counted, the
// injected delay, the token, and the product's own database factory over it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Client, createClient, LibsqlError } from "@libsql/client";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, eq, run, schema } from "../index.ts";
import { type HranaStandIn, type HranaStandInOptions, startHranaStandIn } from "./server.ts";

const started: HranaStandIn[] = [];
const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const standIn of started.splice(0)) await standIn.close();
});

async function standInOn(options: Partial<HranaStandInOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "ticketing-hrana-"));
  const standIn = await startHranaStandIn({ file: join(dir, "db.sqlite"), ...options });
  started.push(standIn);
  return standIn;
}
function clientOf(standIn: HranaStandIn, options: { authToken?: string } = {}) {
  const client = createClient({ url: standIn.url, intMode: "bigint", ...options });
  clients.push(client);
  return client;
}
/** The error a promise rejects with. */
async function failureOf(promise: Promise<unknown>): Promise<LibsqlError> {
  const error = await promise.then(
    () => new Error("expected a failure"),
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(LibsqlError);
  return error as LibsqlError;
}
const count = async (client: Client, table: string) =>
  Number((await client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n);

describe("the Hrana stand-in", () => {
  let standIn: HranaStandIn;
  let client: Client;
  beforeAll(async () => {
    standIn = await standInOn();
    client = clientOf(standIn);
    await client.execute("CREATE TABLE seats (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE, price REAL)");
  });
  afterEach(() => standIn.setDelayMs(0));

  it("round-trips every value type, by position and by name", async () => {
    const blob = new Uint8Array([0, 1, 254, 255]);
    const big = 9_007_199_254_740_993n; // 2^53 + 1: not a safe JS number
    const positional = await client.execute({
      sql: "SELECT ? AS i, ? AS f, ? AS t, ? AS b, ? AS n, ? AS max, ? AS min",
      args: [big, 2.5, "Zürich 🎟", blob, null, 9_223_372_036_854_775_807n, -9_223_372_036_854_775_808n],
    });
    expect(positional.columns).toEqual(["i", "f", "t", "b", "n", "max", "min"]);
    const [row] = positional.rows;
    expect(row?.i).toBe(big);
    expect(row?.f).toBe(2.5);
    expect(row?.t).toBe("Zürich 🎟");
    expect(new Uint8Array(row?.b as ArrayBuffer)).toEqual(blob);
    expect(row?.n).toBeNull();
    expect([row?.max, row?.min]).toEqual([9_223_372_036_854_775_807n, -9_223_372_036_854_775_808n]);

    const named = await client.execute({
      sql: "SELECT :i AS i, @f AS f, $t AS t, :b AS b, :n AS n",
      args: { i: 7n, "@f": 0.1, t: "text", ":b": blob, n: null },
    });
    expect(named.rows[0]?.i).toBe(7n);
    expect(named.rows[0]?.f).toBe(0.1);
    expect(named.rows[0]?.t).toBe("text");
    expect(new Uint8Array(named.rows[0]?.b as ArrayBuffer)).toEqual(blob);
    expect(named.rows[0]?.n).toBeNull();

    // A JS number goes over the wire as a float, as to sqld: SQLite stores it by the column's affinity.
    expect((await client.execute({ sql: "SELECT typeof(?) AS type", args: [42] })).rows[0]?.type).toBe("real");
    const inserted = await client.execute({
      sql: "INSERT INTO seats (label, price) VALUES (?, ?) RETURNING id, label, price",
      args: ["A1", 42],
    });
    expect(inserted.rowsAffected).toBe(1);
    expect(inserted.lastInsertRowid).toBe(inserted.rows[0]?.id);
    expect(inserted.columnTypes).toEqual(["INTEGER", "TEXT", "REAL"]);
    expect((await client.execute("SELECT typeof(price) AS type FROM seats")).rows[0]?.type).toBe("real");
    await client.execute("DELETE FROM seats");
  });

  it("a write batch commits all its statements, or none when one fails", async () => {
    const results = await client.batch(
      [
        { sql: "INSERT INTO seats (label) VALUES (?)", args: ["B1"] },
        { sql: "INSERT INTO seats (label) VALUES (?)", args: ["B2"] },
        "SELECT label FROM seats ORDER BY label",
      ],
      "write",
    );
    expect(results[2]?.rows.map((row) => row.label)).toEqual(["B1", "B2"]);
    const failure = await failureOf(
      client.batch(
        [
          { sql: "INSERT INTO seats (label) VALUES (?)", args: ["B3"] },
          { sql: "INSERT INTO seats (label) VALUES (?)", args: ["B1"] },
        ],
        "write",
      ),
    );
    expect(failure.code).toBe("SQLITE_CONSTRAINT");
    expect(failure.message).toContain("UNIQUE constraint failed: seats.label");
    expect(await count(client, "seats WHERE label = 'B3'")).toBe(0);
    await client.execute("DELETE FROM seats");
  });

  it("an interactive transaction commits, or rolls back, over several requests", async () => {
    const committed = await client.transaction("write");
    await committed.execute({ sql: "INSERT INTO seats (label) VALUES (?)", args: ["T1"] });
    expect(Number((await committed.execute("SELECT count(*) AS n FROM seats")).rows[0]?.n)).toBe(1);
    // Not visible outside before COMMIT.
    expect(await count(client, "seats")).toBe(0);
    await committed.commit();
    expect(await count(client, "seats WHERE label = 'T1'")).toBe(1);

    const rolledBack = await client.transaction("write");
    await rolledBack.execute({ sql: "INSERT INTO seats (label) VALUES (?)", args: ["T2"] });
    await rolledBack.rollback();
    expect(await count(client, "seats WHERE label = 'T2'")).toBe(0);

    const reading = await client.transaction("read");
    expect((await failureOf(reading.execute("INSERT INTO seats (label) VALUES ('T3')"))).code).toBe("SQLITE_READONLY");
    await reading.rollback();
    await client.execute("INSERT INTO seats (label) VALUES ('T3')"); // the pooled connection may write again
    await client.execute("DELETE FROM seats");
  });

  it("answers sqld's error codes", async () => {
    await client.execute("INSERT INTO seats (label) VALUES ('E1')");
    const duplicate = await failureOf(client.execute("INSERT INTO seats (label) VALUES ('E1')"));
    expect([duplicate.code, duplicate.message]).toEqual([
      "SQLITE_CONSTRAINT",
      "SQLITE_CONSTRAINT: SQLite error: UNIQUE constraint failed: seats.label",
    ]);
    expect((await failureOf(client.execute("SELEC 1"))).code).toBe("SQL_PARSE_ERROR");
    expect((await failureOf(client.execute("SELECT * FROM nowhere"))).code).toBe("SQL_INPUT_ERROR");
    expect((await failureOf(client.execute("SELECT 1; SELECT 2"))).code).toBe("SQL_MANY_STATEMENTS");
    expect((await failureOf(client.execute({ sql: "SELECT ?, ?", args: [1] }))).code).toBe("ARGS_INVALID");
    await client.execute("DELETE FROM seats");
  });

  it("two clients' write transactions both succeed, one after the other, and each lock hold is counted", async () => {
    const [first, second] = [clientOf(standIn), clientOf(standIn)];
    standIn.resetStats();
    const a = await first.transaction("write");
    await a.execute("INSERT INTO seats (label) VALUES ('first')");
    const requestsBefore = standIn.stats().requests;
    const b = await second.transaction("write");
    let isSecondIn = false;
    const secondIn = b.execute("SELECT count(*) AS n FROM seats").then((result) => {
      isSecondIn = true;
      return result;
    });
    // The second's BEGIN IMMEDIATE has reached the server and waits there for the lock.
    while (standIn.stats().requests === requestsBefore) await new Promise((resolve) => setImmediate(resolve));
    await a.execute("INSERT INTO seats (label) VALUES ('first, again')"); // a full round trip while it waits
    expect(isSecondIn).toBe(false);
    expect(standIn.stats().streamsOpen).toBeGreaterThanOrEqual(2);
    await a.commit();
    // The second began after the first committed: it sees both rows.
    expect(Number((await secondIn).rows[0]?.n)).toBe(2);
    await b.execute("INSERT INTO seats (label) VALUES ('second')");
    await b.commit();
    expect(await count(client, "seats")).toBe(3);

    const stats = standIn.stats();
    expect(stats.writeTransactions).toBe(2);
    expect(stats.lockHeldMs.max).toBeGreaterThan(0);
    expect(stats.lockHeldMs.p50).toBeGreaterThan(0);
    expect(stats.lockHeldMs.total).toBeGreaterThanOrEqual(stats.lockHeldMs.max);
    const overHttp = (await (await fetch(`${standIn.url}/stand-in/stats`)).json()) as typeof stats;
    expect(overHttp.writeTransactions).toBe(2);
    await fetch(`${standIn.url}/stand-in/stats/reset`, { method: "POST" });
    expect(standIn.stats()).toMatchObject({ writeTransactions: 0, requests: 0 });
    await client.execute("DELETE FROM seats");
  });

  it("holds each request for the delay set at run time", async () => {
    const answer = await fetch(`${standIn.url}/stand-in/delay`, { method: "POST", body: JSON.stringify({ ms: 1000 }) });
    expect(await answer.json()).toEqual({ delayMs: 1000 });
    const start = performance.now();
    await client.execute("SELECT 1");
    expect(performance.now() - start).toBeGreaterThanOrEqual(1000);
  });

  it("answers a malformed request 400 and goes on serving", async () => {
    const post = (path: string, body: string) => fetch(`${standIn.url}${path}`, { method: "POST", body });
    expect((await post("/v2/pipeline", "{not json")).status).toBe(400);
    expect((await post("/v2/pipeline", JSON.stringify({ baton: null, requests: [{ type: "dance" }] }))).status).toBe(
      400,
    );
    expect((await post("/v2/pipeline", JSON.stringify({ baton: "forged", requests: [] }))).status).toBe(400);
    expect((await fetch(`${standIn.url}/v3-protobuf`)).status).toBe(404);
    expect((await fetch(`${standIn.url}/v3`)).status).toBe(200);
    expect(Number((await client.execute("SELECT 1 AS one")).rows[0]?.one)).toBe(1);
  });

  it("speaks Hrana 3: autocommit conditions, get_autocommit, stored SQL, describe and the cursor", async () => {
    const pipeline = async (body: object) =>
      (await (await fetch(`${standIn.url}/v3/pipeline`, { method: "POST", body: JSON.stringify(body) })).json()) as {
        baton: string | null;
        results: { type: string; response?: Record<string, unknown>; error?: { code: string } }[];
      };
    const stmt = (sql: string) => ({ sql });
    const opened = await pipeline({
      baton: null,
      requests: [
        { type: "store_sql", sql_id: 1, sql: "SELECT count(*) FROM seats WHERE label = :label" },
        { type: "describe", sql_id: 1 },
        {
          type: "batch",
          batch: {
            steps: [
              { stmt: stmt("BEGIN") },
              {
                condition: { type: "not", cond: { type: "is_autocommit" } },
                stmt: stmt("INSERT INTO seats (label) VALUES ('H1')"),
              },
              { condition: { type: "error", step: 1 }, stmt: stmt("SELECT 'never'") },
              {
                condition: {
                  type: "and",
                  conds: [
                    { type: "ok", step: 0 },
                    { type: "ok", step: 1 },
                  ],
                },
                stmt: stmt("SELECT 2"),
              },
            ],
          },
        },
        { type: "get_autocommit" },
      ],
    });
    expect(opened.results.map((result) => result.type)).toEqual(["ok", "ok", "ok", "ok"]);
    expect(opened.results[1]?.response?.result).toMatchObject({ params: [{ name: ":label" }], is_readonly: true });
    const batch = opened.results[2]?.response?.result as { step_results: unknown[]; step_errors: unknown[] };
    expect(batch.step_results.map((result) => result !== null)).toEqual([true, true, false, true]);
    expect(batch.step_errors).toEqual([null, null, null, null]);
    expect(opened.results[3]?.response).toEqual({ type: "get_autocommit", is_autocommit: false });

    const cursor = await fetch(`${standIn.url}/v3/cursor`, {
      method: "POST",
      body: JSON.stringify({
        baton: opened.baton,
        batch: {
          steps: [
            { stmt: { sql_id: 1, named_args: [{ name: "label", value: { type: "text", value: "H1" } }] } },
            { stmt: stmt("COMMIT") },
          ],
        },
      }),
    });
    const lines = (await cursor.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.type)).toEqual([
      undefined,
      "step_begin",
      "row",
      "step_end",
      "step_begin",
      "step_end",
    ]);
    expect(lines[2].row).toEqual([{ type: "integer", value: "1" }]);
    const closed = await pipeline({ baton: lines[0].baton, requests: [{ type: "close" }] });
    expect(closed.baton).toBeNull();
    expect(await count(client, "seats WHERE label = 'H1'")).toBe(1);
    // Hrana 2 has no get_autocommit.
    expect(
      (
        await fetch(`${standIn.url}/v2/pipeline`, {
          method: "POST",
          body: JSON.stringify({ baton: null, requests: [{ type: "get_autocommit" }] }),
        })
      ).status,
    ).toBe(400);
    await client.execute("DELETE FROM seats");
  });
});

describe("the Hrana stand-in's streams", () => {
  /**
   * One client's write transaction holds the lock with a row written; another's batch waits for the lock until the
   * stand-in rolls the first back, and then writes its own row, the only one left.
   */
  async function heldThenTakenOver(options: Partial<HranaStandInOptions>) {
    const standIn = await standInOn(options);
    const [holding, waiting] = [clientOf(standIn), clientOf(standIn)];
    await holding.execute("CREATE TABLE notes (text TEXT)");
    const held = await holding.transaction("write");
    await held.execute("INSERT INTO notes VALUES ('lost')");
    await waiting.batch(["INSERT INTO notes VALUES ('kept')"], "write");
    expect((await waiting.execute("SELECT text FROM notes")).rows.map((row) => row.text)).toEqual(["kept"]);
    return { standIn, held, waiting };
  }

  it("an abandoned transaction is rolled back when its stream expires, and a waiting writer then goes on", async () => {
    const { standIn, held: abandoned } = await heldThenTakenOver({ streamIdleMs: 1000 });
    expect((await failureOf(abandoned.commit())).code).toBe("STREAM_EXPIRED");
    expect(standIn.stats().streamsOpen).toBe(0);
  });

  it("a transaction holding the lock too long is rolled back for a waiting writer, as sqld does", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ticketing-hrana-")), "db.sqlite");
    const { standIn, held: stale, waiting } = await heldThenTakenOver({ file, transactionTimeoutMs: 1000 });
    expect((await failureOf(stale.commit())).code).toBe("TRANSACTION_TIMEOUT");
    expect(standIn.stats().writeTransactions).toBeGreaterThanOrEqual(2);

    // A lock held outside the stand-in (another process on the file) cannot be taken: SQLITE_BUSY after a timeout.
    const outside = new BetterSqlite3(file);
    outside.exec("BEGIN IMMEDIATE");
    try {
      expect((await failureOf(waiting.execute("INSERT INTO notes VALUES ('late')"))).code).toBe("SQLITE_BUSY");
    } finally {
      outside.exec("ROLLBACK");
      outside.close();
    }
    await waiting.execute("INSERT INTO notes VALUES ('late')");
  });

  it("refuses a request without the token, as Turso would, and serves one with it", async () => {
    const standIn = await standInOn({ authToken: "s3cret" });
    const refused = await failureOf(clientOf(standIn).execute("SELECT 1"));
    expect(refused.code).toBe("SERVER_ERROR");
    expect(refused.message).toContain("401");
    expect((await failureOf(clientOf(standIn, { authToken: "wrong" }).execute("SELECT 1"))).code).toBe("SERVER_ERROR");
    const answer = await clientOf(standIn, { authToken: "s3cret" }).execute("SELECT 1 AS one");
    expect(answer.rows[0]?.one).toBe(1n);
  });

  it("the product's database factory migrates its schema and runs a batch and a transaction over it", async () => {
    const standIn = await standInOn();
    const database = createDatabase({ url: standIn.url });
    try {
      expect(database.driver).toBe("libsql");
      await database.migrate();
      const [[unit]] = (await database.batch([
        { sql: "INSERT INTO units (name) VALUES (?) RETURNING id, name", args: ["Choir"] },
      ])) as [[{ id: number; name: string }]];
      expect(unit.name).toBe("Choir");
      const renamed = await database.transaction(function* (tx) {
        yield* run(tx.update(schema.units).set({ name: "Chorale" }).where(eq(schema.units.id, unit.id)).run());
        return yield* run(tx.select().from(schema.units).where(eq(schema.units.id, unit.id)).get());
      });
      expect(renamed?.name).toBe("Chorale");
      // The foreign keys are enforced, as on sqld: a membership of a unit that does not exist is refused.
      await expect(
        database.batch([{ sql: "INSERT INTO memberships (unit_id, user_id) VALUES (?, ?)", args: [999, 999] }]),
      ).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT" });
      expect(standIn.stats().writeTransactions).toBeGreaterThan(2);
    } finally {
      await database.close();
    }
  });
});
