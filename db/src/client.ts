// One factory for both drivers (DESIGN.md 2): better-sqlite3 on a file by default, libSQL through DATABASE_URL.
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@libsql/client";
import BetterSqlite3 from "better-sqlite3";
import { drizzle as drizzleBetterSqlite } from "drizzle-orm/better-sqlite3";
import { migrate as migrateBetterSqlite } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzleLibsql } from "drizzle-orm/libsql";
import { migrate as migrateLibsql } from "drizzle-orm/libsql/migrator";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { LRUCache } from "lru-cache";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
/** A Drizzle handle of either driver. Await every query: on better-sqlite3 the value is already there. */
export type Db = BaseSQLiteDatabase<"sync" | "async", unknown, Schema>;
export type Driver = "better-sqlite3" | "libsql";

/**
 * A transaction body is a generator that yields each query's result (`yield* run(query.get())`), so the same
 * code runs synchronously inside a better-sqlite3 transaction (no other request can interleave) and
 * asynchronously inside a libSQL transaction (serialised by the write queue). Never read-then-write across
 * an `await` outside of one (DESIGN.md 2, "Pitfall").
 */
export type TransactionBody<T> = (tx: Db) => Generator<unknown, T, unknown>;

/** Unwraps a query result inside a transaction body: `const row = yield* run(tx.select()...get())`. */
export function* run<T>(result: T | Promise<T>): Generator<T | Promise<T>, T, unknown> {
  return (yield result) as T;
}

export interface Database {
  db: Db;
  driver: Driver;
  /** Runs `body` atomically: everything it wrote is committed, or nothing if it throws. */
  transaction<T>(body: TransactionBody<T>): Promise<T>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `file:path`, `:memory:`, or `libsql://…`/`http(s)://…` (libSQL). */
  url: string;
  driver?: Driver;
  authToken?: string;
  /** Told every SQL statement the connection executes (better-sqlite3 only): the bench counts them. */
  onStatement?: (sql: string) => void;
}

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), "../migrations");

export function filePathOf(url: string): string | null {
  if (url === ":memory:") return url;
  if (url.startsWith("file:")) return url.slice("file:".length);
  return null;
}

export function createDatabase(options: DatabaseOptions): Database {
  const remote = filePathOf(options.url) === null;
  const driver = options.driver ?? (remote ? "libsql" : "better-sqlite3");
  return driver === "libsql" ? createLibsqlDatabase(options) : createBetterSqliteDatabase(options);
}

function ensureDirectory(path: string) {
  if (path !== ":memory:") mkdirSync(dirname(resolve(path)), { recursive: true });
}

/** How many compiled statements a better-sqlite3 connection keeps (`inArray` of each length is its own text). */
const STATEMENT_CACHE_SIZE = 1_000;

/**
 * better-sqlite3 compiles SQL on every `prepare`, and Drizzle prepares each query it runs: the same text was
 * compiled again on every request (the top entry of the add-to-basket profile). The connection keeps its
 * compiled statements by text, least recently used out first. A statement is only handed out again when it is
 * not in the middle of an `iterate()` (busy), and in the row mode Drizzle expects of a fresh one (not raw).
 */
function cacheStatements(sqlite: BetterSqlite3.Database) {
  const compile = sqlite.prepare.bind(sqlite);
  const statements = new LRUCache<string, BetterSqlite3.Statement>({ max: STATEMENT_CACHE_SIZE });
  const prepare = (source: string): BetterSqlite3.Statement => {
    const cached = statements.get(source);
    if (cached && !cached.busy) {
      if (cached.reader) cached.raw(false);
      return cached;
    }
    const statement = compile(source);
    if (!cached) statements.set(source, statement);
    return statement;
  };
  sqlite.prepare = prepare as typeof sqlite.prepare;
}

function createBetterSqliteDatabase(options: DatabaseOptions): Database {
  const path = filePathOf(options.url);
  if (path === null) throw new Error(`better-sqlite3 needs a file: URL, got ${options.url}`);
  ensureDirectory(path);
  const sqlite = new BetterSqlite3(
    path,
    options.onStatement ? { verbose: (sql) => options.onStatement?.(String(sql)) } : {},
  );
  cacheStatements(sqlite);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const drizzled = drizzleBetterSqlite(sqlite, { schema });
  const db = drizzled as unknown as Db;
  // A better-sqlite3 transaction is its connection's: the body runs its queries on the database handle itself,
  // inside one transaction function made once (no Drizzle transaction object built per call). Synchronous body:
  // nothing else runs on this connection until it returns.
  const immediate = sqlite.transaction((body: TransactionBody<unknown>) => {
    const steps = body(db);
    let step = steps.next();
    while (!step.done) step = steps.next(step.value);
    return step.value;
  }).immediate;
  return {
    db,
    driver: "better-sqlite3",
    async transaction<T>(body: TransactionBody<T>) {
      return immediate(body) as T;
    },
    async migrate() {
      migrateBetterSqlite(drizzled, { migrationsFolder });
    },
    async close() {
      sqlite.close();
    },
  };
}

/** Serialises the process's write transactions: libSQL's local file has one writer at a time. */
class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

function createLibsqlDatabase(options: DatabaseOptions): Database {
  const path = filePathOf(options.url);
  if (path !== null) ensureDirectory(path);
  const client = createClient({ url: options.url, authToken: options.authToken });
  const db = drizzleLibsql(client, { schema });
  const queue = new WriteQueue();
  const onFile = path !== null && path !== ":memory:";
  const ready = onFile
    ? client.execute("PRAGMA journal_mode = WAL").then(() => client.execute("PRAGMA busy_timeout = 5000"))
    : Promise.resolve();
  // A write made outside a transaction runs on the client's own connection while a queued transaction may hold the
  // file's write lock on another: it failed at once with SQLITE_BUSY (a busy timeout would not help: waiting blocks
  // the event loop the transaction needs to finish). Such writes wait their turn in the same queue; reads need not.
  const execute = client.execute.bind(client) as (...args: unknown[]) => ReturnType<typeof client.execute>;
  client.execute = ((...args: unknown[]) => {
    const statement = args[0] as string | { sql: string };
    const text = typeof statement === "string" ? statement : statement.sql;
    return /^\s*select\b/i.test(text) ? execute(...args) : queue.run(() => execute(...args));
  }) as typeof client.execute;
  return {
    db: db as unknown as Db,
    driver: "libsql",
    async transaction<T>(body: TransactionBody<T>) {
      await ready;
      return queue.run(() =>
        db.transaction(
          async (tx) => {
            const steps = body(tx as unknown as Db);
            let step = steps.next();
            while (!step.done) step = steps.next(await step.value);
            return step.value;
          },
          { behavior: "immediate" },
        ),
      );
    },
    async migrate() {
      await ready;
      await migrateLibsql(db, { migrationsFolder });
    },
    async close() {
      client.close();
    },
  };
}
