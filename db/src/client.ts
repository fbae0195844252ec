// One factory for both drivers (docs/design.md §2): better-sqlite3 on a file by default, libSQL through DATABASE_URL.
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Client, createClient, LibsqlError, type Transaction, type TransactionMode } from "@libsql/client";
import BetterSqlite3 from "better-sqlite3";
import { getTableColumns, type InferSelectModel } from "drizzle-orm";
import { drizzle as drizzleBetterSqlite } from "drizzle-orm/better-sqlite3";
import { migrate as migrateBetterSqlite } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzleLibsql } from "drizzle-orm/libsql";
import { migrate as migrateLibsql } from "drizzle-orm/libsql/migrator";
import type { BaseSQLiteDatabase, SQLiteTable } from "drizzle-orm/sqlite-core";
import { LRUCache } from "lru-cache";
import { pooledFetch } from "./http-fetch.ts";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
/** A Drizzle handle of either driver. Await every query: on better-sqlite3 the value is already there. */
export type Db = BaseSQLiteDatabase<"sync" | "async", unknown, Schema>;
export type Driver = "better-sqlite3" | "libsql";

/**
 * A transaction body is a generator that yields each query's result (`yield* run(query.get())`), so the same
 * code runs synchronously inside a better-sqlite3 transaction (no other request can interleave) and
 * asynchronously inside a libSQL transaction (serialised by the write queue). Never read-then-write across
 * an `await` outside of one (docs/design.md §2, "Pitfall").
 */
export type TransactionBody<T> = (tx: Db) => Generator<unknown, T, unknown>;

/** Unwraps a query result inside a transaction body: `const row = yield* run(tx.select()...get())`. */
export function* run<T>(result: T | Promise<T>): Generator<T | Promise<T>, T, unknown> {
  return (yield result) as T;
}

/** One SQL statement of a batch, its `?` placeholders filled in order (booleans as 0/1). */
export interface Statement {
  sql: string;
  args: (string | number | bigint | null)[];
}
/** A row a statement of a batch answered (`RETURNING` or `SELECT`), keyed by column name as SQLite names it. */
export type BatchRow = Record<string, unknown>;

/** A row a batch answered for `table` (`RETURNING *`), as Drizzle would have answered it (camelCase, booleans, JSON). */
export function rowOf<T extends SQLiteTable>(table: T, row: BatchRow): InferSelectModel<T> {
  const mapped: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = row[column.name];
    mapped[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return mapped as InferSelectModel<T>;
}

export interface Database {
  db: Db;
  driver: Driver;
  /** Runs `body` atomically: everything it wrote is committed, or nothing if it throws. */
  transaction<T>(body: TransactionBody<T>): Promise<T>;
  /**
   * Runs the statements in order, in one write transaction reached in ONE round trip (libSQL `batch(…, "write")`,
   * one synchronous better-sqlite3 transaction): all of them are committed, or none if one fails. No JavaScript
   * runs between them, so each guards on what the ones before did (ADR 0026). Answers each statement's rows.
   * On better-sqlite3 the batches of one turn of the event loop commit together, each in a savepoint (ADR 0040).
   */
  batch(statements: Statement[]): Promise<BatchRow[][]>;
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
  /**
   * Told every round trip made to the driver, and whether it was made holding the write lock (ADR 0026): on
   * libSQL each request (`execute`, `batch`, a transaction's BEGIN, statements and COMMIT); on better-sqlite3 each
   * call into it (a whole synchronous transaction or batch is one; nothing else runs while it holds the lock).
   */
  onRoundTrip?: (trip: { locked: boolean }) => void;
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

/** How long a write waits for another process's write lock before it fails with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;

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
  const { onStatement, onRoundTrip } = options;
  // Outside a transaction or batch each statement is its own call into the driver (a write takes the lock for it).
  let inTransaction = false;
  const verbose =
    onStatement || onRoundTrip
      ? (text: unknown) => {
          onStatement?.(String(text));
          if (!inTransaction) onRoundTrip?.({ locked: !/^\s*select\b/i.test(String(text)) });
        }
      : undefined;
  const sqlite = new BetterSqlite3(path, verbose ? { verbose } : {});
  cacheStatements(sqlite);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
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
  const batch = sqlite.transaction((statements: Statement[]) =>
    statements.map(({ sql, args }) => {
      const statement = sqlite.prepare(sql);
      if (statement.reader) return statement.all(...args) as BatchRow[];
      statement.run(...args);
      return [];
    }),
  ).immediate;
  /** Runs `call` as one call into the driver: its statements are not counted one by one. */
  const whole = <T>(call: () => T): T => {
    const was = inTransaction;
    inTransaction = true;
    try {
      return call();
    } finally {
      inTransaction = was;
    }
  };
  /** One call into the driver holding the write lock: counted once, whatever it executes. */
  const locked = <T>(call: () => T): T => {
    onRoundTrip?.({ locked: true });
    return whole(call);
  };
  // A group of batches is counted as its batches, each one call (what each request asked for).
  const grouped = groupCommits(sqlite, batch, locked, whole);
  return {
    db,
    driver: "better-sqlite3",
    async transaction<T>(body: TransactionBody<T>) {
      return locked(() => immediate(body) as T);
    },
    batch: grouped.batch,
    async migrate() {
      migrateBetterSqlite(drizzled, { migrationsFolder });
    },
    async close() {
      // A batch asked for before the close is run, not refused for a connection closed under it.
      grouped.flush(true);
      sqlite.close();
    },
  };
}

/** The event loop's own `setImmediate`, taken before a test's fake timers could replace it. */
const nextTurn = globalThis.setImmediate;

/**
 * Group commit: the batches asked for in one turn of the event loop (a rush's adds, parsed from many sockets in
 * one poll) run in one write transaction, each in a savepoint of its own, and are answered once it is committed.
 * A batch that fails is rolled back to its savepoint alone and rejected; the others still commit. The commit, the
 * costliest part of a small write (its pages written to the WAL), is paid once for the group.
 */
function groupCommits(
  sqlite: BetterSqlite3.Database,
  batch: (statements: Statement[]) => BatchRow[][],
  locked: <T>(call: () => T) => T,
  whole: <T>(call: () => T) => T,
) {
  type Waiting = { statements: Statement[]; resolve: (rows: BatchRow[][]) => void; reject: (error: unknown) => void };
  type Outcome = { ok: boolean; rows: BatchRow[][]; error: unknown };
  let waiting: Waiting[] = [];
  const runGroup = sqlite.transaction((group: Waiting[], outcomes: Outcome[]) => {
    group.forEach((entry, index) => {
      const outcome = outcomes[index] as Outcome;
      try {
        // Nested in the group's transaction, better-sqlite3 runs the batch in a savepoint.
        outcome.rows = locked(() => batch(entry.statements));
        outcome.ok = true;
      } catch (error) {
        outcome.error = error;
        // SQLite ended the whole transaction (it does on a few errors): nothing is committed yet, so the group
        // is run again without this batch, each of the others alone.
        if (!sqlite.inTransaction) throw new GroupLost(index);
      }
    });
  }).immediate;
  /** When the group waiting for another process's write lock first found it taken; null when none is waiting. */
  let lockTakenSince: number | null = null;
  const answer = (group: Waiting[], closing: boolean) => {
    const outcomes: Outcome[] = group.map(() => ({ ok: false, rows: [], error: undefined }));
    // Another process on the file (WORKERS) may hold its write lock. SQLite's busy wait would sleep with the
    // event loop stopped (1 ms, then more); instead the group is tried again at the next turn, the loop reading
    // and serving requests meanwhile, and growing the group. Past the busy timeout, or when the connection is
    // closing, it waits as any write does.
    const waits = closing || (lockTakenSince !== null && performance.now() - lockTakenSince > BUSY_TIMEOUT_MS);
    try {
      if (!waits) whole(() => sqlite.pragma("busy_timeout = 0"));
      try {
        whole(() => runGroup(group, outcomes));
      } finally {
        if (!waits) whole(() => sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`));
      }
      lockTakenSince = null;
    } catch (error) {
      // Refused at BEGIN: nothing ran.
      if (!waits && isBusy(error) && outcomes.every((outcome) => !outcome.ok && outcome.error === undefined)) {
        lockTakenSince ??= performance.now();
        if (waiting.length === 0) nextTurn(flush);
        waiting = [...group, ...waiting];
        return;
      }
      lockTakenSince = null;
      const lost = error instanceof GroupLost ? error.index : -1;
      group.forEach((entry, index) => {
        if (index === lost) entry.reject(outcomes[index]?.error);
        else if (lost < 0) entry.reject(error);
        else {
          try {
            entry.resolve(locked(() => batch(entry.statements)));
          } catch (again) {
            entry.reject(again);
          }
        }
      });
      return;
    }
    group.forEach((entry, index) => {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) entry.resolve(outcome.rows);
      else entry.reject(outcome.error);
    });
  };
  /** Runs the batches waiting, if any: at the turn's end, or at once before the connection closes. */
  const flush = (closing = false) => {
    const group = waiting;
    waiting = [];
    if (group.length > 0) answer(group, closing);
  };
  const batchInGroup = (statements: Statement[]) =>
    new Promise<BatchRow[][]>((resolve, reject) => {
      if (waiting.length === 0) nextTurn(flush);
      waiting.push({ statements, resolve, reject });
    });
  return { batch: batchInGroup, flush };
}

const isBusy = (error: unknown) => (error as { code?: unknown } | null)?.code === "SQLITE_BUSY";

class GroupLost extends Error {
  constructor(readonly index: number) {
    super("the group's transaction was ended by SQLite");
  }
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

/** How many times a write a libSQL server refused uncommitted is tried in all. */
const WRITE_ATTEMPTS = 3;
/** What a libSQL server (sqld) answers for a write transaction it ended or never began, having committed nothing. */
const UNCOMMITTED_CODES = new Set(["SQLITE_BUSY", "TRANSACTION_TIMEOUT", "STREAM_EXPIRED"]);

/** The libSQL error code of `error` or of one of its causes (Drizzle wraps the client's errors). */
function libsqlCodeOf(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause)
    if (cause instanceof LibsqlError) return cause.code;
  return undefined;
}

/** Runs `write`, again when the server refused it uncommitted, up to WRITE_ATTEMPTS times in all. */
async function againWhenRefused<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= WRITE_ATTEMPTS || !UNCOMMITTED_CODES.has(libsqlCodeOf(error) ?? "")) throw error;
    }
  }
}

/**
 * Wraps a libSQL client's requests (and those of the transactions it opens) so that each is told to `onRoundTrip`
 * (ADR 0026). Reads outside a transaction are the only requests made without the write lock.
 */
function instrument(client: Client, { onRoundTrip }: DatabaseOptions) {
  if (!onRoundTrip) return;
  // biome-ignore lint/suspicious/noExplicitAny: wraps the client's overloaded methods whatever their arguments
  type Call = (...args: any[]) => Promise<any>;
  const trip = <F extends Call>(call: F, isLocked: (first: unknown) => boolean) =>
    ((...args: Parameters<F>) => {
      onRoundTrip({ locked: isLocked(args[0]) });
      return call(...args);
    }) as F;
  const always = () => true;
  const isWrite = (statement: unknown) =>
    !/^\s*select\b/i.test(typeof statement === "string" ? statement : (statement as { sql: string }).sql);
  client.execute = trip(client.execute.bind(client), isWrite);
  client.batch = trip(client.batch.bind(client), always);
  const open = trip(client.transaction.bind(client) as Client["transaction"], always);
  client.transaction = async (mode?: TransactionMode) => {
    const tx: Transaction = await open(mode);
    tx.execute = trip(tx.execute.bind(tx), always);
    tx.batch = trip(tx.batch.bind(tx), always);
    tx.commit = trip(tx.commit.bind(tx), always);
    tx.rollback = trip(tx.rollback.bind(tx), always);
    return tx;
  };
}

function createLibsqlDatabase(options: DatabaseOptions): Database {
  const path = filePathOf(options.url);
  if (path !== null) ensureDirectory(path);
  // Over HTTP, through a pool of our own rather than the global fetch (http-fetch.ts: the fetch cost half the CPU).
  const http = /^https?:/i.test(options.url) ? pooledFetch() : null;
  const client = createClient({ url: options.url, authToken: options.authToken, fetch: http?.fetch });
  instrument(client, options);
  const db = drizzleLibsql(client, { schema });
  const onFile = path !== null && path !== ":memory:";
  // A local file (or memory) has one writer at a time in this process's client: its writes take turns here. A libSQL
  // server serialises writes itself, each transaction on a stream of its own, so a process keeps many in flight.
  const queue = path !== null ? new WriteQueue() : null;
  // A server answers a write it could not serialise (SQLITE_BUSY after its busy timeout, a transaction it rolled back
  // for a waiting writer or an idle stream) without having committed any of it: the whole write is tried again.
  const inTurn = <T>(task: () => Promise<T>) => (queue ? queue.run(task) : againWhenRefused(task));
  const ready = onFile
    ? client.execute("PRAGMA journal_mode = WAL").then(() => client.execute(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`))
    : Promise.resolve();
  // A write made outside a transaction runs on the client's own connection while a queued transaction may hold the
  // file's write lock on another: it failed at once with SQLITE_BUSY (a busy timeout would not help: waiting blocks
  // the event loop the transaction needs to finish). Such writes wait their turn in the same queue; reads need not.
  const execute = client.execute.bind(client) as (...args: unknown[]) => ReturnType<typeof client.execute>;
  // Other processes on the same file (WORKERS, replicas) hold its write lock too: each connection waits for them
  // (busy_timeout) instead of failing with SQLITE_BUSY. A transaction takes the client's connection with it and
  // the client opens a new one, which starts without the pragma: it is given it at once. (Both calls run
  // synchronously on a local file, so nothing uses the new connection in between.)
  const transaction = client.transaction.bind(client);
  client.transaction = (async (mode) => {
    const started = transaction(mode);
    if (onFile) execute(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`).catch(() => undefined);
    const tx = await started;
    // A rollback after a failure that already ended the transaction on the server (it rolled it back, or the stream
    // expired) fails in turn: that failure must not hide the first, which says whether to try again. Nothing of a
    // transaction that was not committed stays, whether the rollback was answered or not.
    const rollback = tx.rollback.bind(tx);
    tx.rollback = () => rollback().catch(() => undefined);
    return tx;
  }) as typeof client.transaction;
  client.execute = ((...args: unknown[]) => {
    const statement = args[0] as string | { sql: string };
    const text = typeof statement === "string" ? statement : statement.sql;
    return /^\s*select\b/i.test(text) ? execute(...args) : inTurn(() => execute(...args));
  }) as typeof client.execute;
  return {
    db: db as unknown as Db,
    driver: "libsql",
    async transaction<T>(body: TransactionBody<T>) {
      await ready;
      return inTurn(() =>
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
    async batch(statements) {
      await ready;
      const results = await inTurn(() => client.batch(statements, "write"));
      return results.map(({ columns, rows }) =>
        rows.map((row) => Object.fromEntries(columns.map((column, index) => [column, row[index]]))),
      );
    },
    async migrate() {
      await ready;
      await migrateLibsql(db, { migrationsFolder });
    },
    async close() {
      client.close();
      await http?.close();
    },
  };
}
