import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { startHranaStandIn } from "./hrana-stand-in/server.ts";
import { createDatabase, type Database, type Driver, eq, prepared, run, schema, sql } from "./index.ts";

const open: Database[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
});

async function fresh(driver: Driver, onStatement?: (sql: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), "ticketing-db-"));
  const database = createDatabase({ url: `file:${join(dir, "db.sqlite")}`, driver, onStatement });
  open.push(database);
  await database.migrate();
  return database;
}

const unitNamed = prepared((db) =>
  db
    .select({ id: schema.units.id, name: schema.units.name })
    .from(schema.units)
    .where(eq(schema.units.name, sql.placeholder("name")))
    .prepare(),
);

describe.each(["better-sqlite3", "libsql"] as const)("%s", (driver) => {
  it("a prepared query answers inside and outside transactions, and sees the transaction's own writes", async () => {
    const database = await fresh(driver);
    expect(await unitNamed(database.db).get({ name: "Choir" })).toBeUndefined();
    const seen = await database.transaction(function* (tx) {
      yield* run(tx.insert(schema.units).values({ name: "Choir" }).run());
      return yield* run(unitNamed(tx).get({ name: "Choir" }));
    });
    expect(seen?.name).toBe("Choir");
    expect((await unitNamed(database.db).get({ name: "Choir" }))?.name).toBe("Choir");
  });

  it("a transaction that throws leaves nothing behind", async () => {
    const database = await fresh(driver);
    await expect(
      database.transaction(function* (tx) {
        yield* run(tx.insert(schema.units).values({ name: "Orchestra" }).run());
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(await unitNamed(database.db).get({ name: "Orchestra" })).toBeUndefined();
  });
});

describe("libSQL", () => {
  it("a write made outside a transaction while one is open waits its turn instead of failing", async () => {
    const database = await fresh("libsql");
    // Each step waits for the other's signal, not for time: the outside write is made while the transaction is
    // certainly open, and the transaction goes on only once that write is on its way.
    let opened = () => {};
    const isOpen = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let goOn = () => {};
    const mayGoOn = new Promise<void>((resolve) => {
      goOn = resolve;
    });
    const inTransaction = database.transaction(function* (tx) {
      yield* run(tx.insert(schema.units).values({ name: "First" }).run());
      opened();
      yield* run(mayGoOn);
      yield* run(tx.insert(schema.units).values({ name: "Second" }).run());
    });
    await isOpen;
    const outside = Promise.resolve(database.db.insert(schema.units).values({ name: "Outside" }).run());
    let isOutsideDone = false;
    void outside.then(() => {
      isOutsideDone = true;
    });
    // A few turns of the event loop: time enough for the write to fail at once, as it did with SQLITE_BUSY.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(isOutsideDone).toBe(false);
    goOn();
    await outside;
    await inTransaction;
    const names = (await database.db.select({ name: schema.units.name }).from(schema.units).all()).map((u) => u.name);
    expect(names).toEqual(["First", "Second", "Outside"]);
  });
});

describe("better-sqlite3's kept statements", () => {
  it("a statement Drizzle read in raw mode answers rows as objects to the next query of the same text", async () => {
    const database = await fresh("better-sqlite3");
    await database.db.insert(schema.units).values({ name: "Band" }).run();
    // Drizzle reads selected fields in raw (array) mode; a plain `all` of the same SQL text expects objects.
    const rows = await database.db.select({ id: schema.units.id }).from(schema.units).all();
    expect(rows).toEqual([{ id: expect.any(Number) }]);
    const plain = await database.db.all(sql.raw('select "id" from "units"'));
    expect(plain).toEqual([{ id: rows[0]?.id }]);
  });

  it("counts every statement executed when asked", async () => {
    const statements: string[] = [];
    const database = await fresh("better-sqlite3", (text) => statements.push(text));
    statements.length = 0;
    await unitNamed(database.db).get({ name: "Band" });
    await unitNamed(database.db).get({ name: "Choir" });
    expect(statements).toHaveLength(2);
    expect(statements[1]).toContain("'Choir'");
  });
});

describe("better-sqlite3's group commit", () => {
  const insertUnit = (name: string) => [{ sql: "insert into units (name) values (?) returning name", args: [name] }];
  const unitNames = async (database: Database) =>
    (await database.db.select({ name: schema.units.name }).from(schema.units).orderBy(schema.units.name)).map(
      (unit) => unit.name,
    );

  it("commits the batches asked for in one turn once, each answered with its own rows", async () => {
    const statements: string[] = [];
    const database = await fresh("better-sqlite3", (text) => statements.push(text));
    statements.length = 0;
    const answers = await Promise.all(["Alto", "Bass", "Tenor"].map((name) => database.batch(insertUnit(name))));
    expect(answers).toEqual([[[{ name: "Alto" }]], [[{ name: "Bass" }]], [[{ name: "Tenor" }]]]);
    expect(statements.filter((text) => /^commit/i.test(text))).toHaveLength(1);
    expect(await unitNames(database)).toEqual(["Alto", "Bass", "Tenor"]);
  });

  it("runs a batch asked for just before the connection closes, instead of refusing it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ticketing-db-"));
    const url = `file:${join(dir, "db.sqlite")}`;
    const database = createDatabase({ url, driver: "better-sqlite3" });
    await database.migrate();
    const written = database.batch(insertUnit("Alto"));
    await database.close();
    expect(await written).toEqual([[{ name: "Alto" }]]);
    const again = createDatabase({ url, driver: "better-sqlite3" });
    open.push(again);
    expect(await unitNames(again)).toEqual(["Alto"]);
  });

  it("waits for another process's write lock with the event loop running, then commits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ticketing-db-"));
    const path = join(dir, "db.sqlite");
    const database = createDatabase({ url: `file:${path}`, driver: "better-sqlite3" });
    open.push(database);
    await database.migrate();
    // Another process's connection holding the file's write lock (the lock is the file's, not the process's).
    const other = new BetterSqlite3(path);
    other.exec("begin immediate");
    other.prepare("insert into units (name) values ('Bass')").run();
    let settled = false;
    const written = database.batch(insertUnit("Alto")).finally(() => {
      settled = true;
    });
    // SQLite's busy wait would have stopped the loop here until its timeout, then refused the batch.
    for (let turn = 0; turn < 5; turn++) await new Promise((next) => setImmediate(next));
    expect(settled).toBe(false);
    other.exec("commit");
    other.close();
    expect(await written).toEqual([[{ name: "Alto" }]]);
    expect(await unitNames(database)).toEqual(["Alto", "Bass"]);
  });

  it("rejects a failing batch alone: the others of its group are committed", async () => {
    const database = await fresh("better-sqlite3");
    const failing = [...insertUnit("Soprano"), { sql: "insert into units (name) values (null)", args: [] }];
    const outcomes = await Promise.allSettled([
      database.batch(insertUnit("Alto")),
      database.batch(failing),
      database.batch(insertUnit("Tenor")),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await unitNames(database)).toEqual(["Alto", "Tenor"]);
  });

  it("commits the others when a batch's failure ends the whole transaction (a trigger's RAISE(ROLLBACK))", async () => {
    const database = await fresh("better-sqlite3");
    await database.batch([
      {
        sql: `create trigger refuse_unit before insert on units when new.name = 'Refused'
          begin select raise(rollback, 'refused'); end`,
        args: [],
      },
    ]);
    const outcomes = await Promise.allSettled(
      ["Alto", "Bass", "Refused", "Tenor"].map((name) => database.batch(insertUnit(name))),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(await unitNames(database)).toEqual(["Alto", "Bass", "Tenor"]);
  });
});

describe("libSQL over the wire (the Hrana stand-in)", () => {
  it("tries a transaction again when the server rolled it back for a waiting writer, committing it once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ticketing-db-wire-"));
    // sqld rolls back a write transaction that held the lock 5 s while another writer waited; here 1 s.
    const standIn = await startHranaStandIn({ file: join(dir, "db.sqlite"), transactionTimeoutMs: 1_000 });
    const database = createDatabase({ url: standIn.url });
    const other = createClient({ url: standIn.url });
    try {
      await database.db.run(sql`create table seats (buyer text not null)`);
      let attempts = 0;
      let holdsTheLock = () => {};
      const locked = new Promise<void>((done) => (holdsTheLock = done));
      let otherIsThrough = () => {};
      const otherWrote = new Promise<void>((done) => (otherIsThrough = done));
      const slow = database.transaction(function* (tx) {
        attempts += 1;
        yield* run(tx.run(sql`insert into seats values ('first, part 1')`));
        // The first attempt keeps the lock until the other writer, which waits for it meanwhile, is through.
        if (attempts === 1) {
          holdsTheLock();
          yield otherWrote;
        }
        yield* run(tx.run(sql`insert into seats values ('first, part 2')`));
        return attempts;
      });
      await locked;
      await other.execute("insert into seats values ('other')");
      otherIsThrough();
      expect(await slow).toBe(2);
      const rows = await other.execute("select buyer from seats order by rowid");
      expect(rows.rows.map((row) => row.buyer)).toEqual(["other", "first, part 1", "first, part 2"]);
    } finally {
      other.close();
      await database.close();
      await standIn.close();
    }
  });
});
