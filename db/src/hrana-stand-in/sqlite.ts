// The stand-in's SQLite side: a pool of better-sqlite3 connections (one per open Hrana stream), statements run
// with sqld's error codes, the write lock waited for without blocking the event loop, and the time each write
// transaction held that lock. What is measured is said in server.ts's header.
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { type Col, HranaError, type SqliteValue, type StmtResult, sqliteCode, valueToJson } from "./protocol.ts";

/** A waiter also retries this often: a lock held by another process (or the WAL's recovery) wakes no one here. */
const BUSY_POLL_MS = 50;
/** Connections kept open between streams: as many as a bench's API processes keep requests in flight. */
const IDLE_CONNECTIONS = 128;
const STATEMENTS_PER_CONNECTION = 200;
/** `@libsql/client` opens a read transaction with libSQL's own syntax, which SQLite does not parse. */
const READONLY_BEGIN = /^\s*BEGIN\s+TRANSACTION\s+READONLY\s*;?\s*$/i;

export interface LockStats {
  writeTransactions: number;
  lockHeldMs: { total: number; mean: number; p50: number; p99: number; max: number };
}

/** The write lock's holding times, one per write transaction (ms). */
class LockLedger {
  private samples: number[] = [];
  record(ms: number) {
    this.samples.push(ms);
  }
  reset() {
    this.samples = [];
  }
  stats(): LockStats {
    const sorted = [...this.samples].sort((a, b) => a - b);
    const total = sorted.reduce((sum, ms) => sum + ms, 0);
    const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
    const round = (ms: number) => Math.round(ms * 1000) / 1000;
    return {
      writeTransactions: sorted.length,
      lockHeldMs: {
        total: round(total),
        mean: round(sorted.length ? total / sorted.length : 0),
        p50: round(rank(0.5)),
        p99: round(rank(0.99)),
        max: round(sorted.at(-1) ?? 0),
      },
    };
  }
}

/** Statements waiting for the write lock, first come first retried: the one at the head is woken when it is free. */
class LockGate {
  private waiters: (() => void)[] = [];
  private waking = false;
  wait(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        const index = this.waiters.indexOf(done);
        if (index >= 0) this.waiters.splice(index, 1);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, Math.min(BUSY_POLL_MS, deadline - Date.now())));
      this.waiters.push(done);
    });
  }
  /** A woken waiter is retrying: the next may be woken once its attempt is over. */
  resumed() {
    this.waking = false;
  }
  wakeNext() {
    if (this.waking || this.waiters.length === 0) return;
    this.waking = true;
    this.waiters[0]?.();
  }
}

/** One SQLite connection, held by one stream at a time. */
export class Connection {
  readonly db: BetterSqlite3.Database;
  private statements = new Map<string, BetterSqlite3.Statement>();
  /** When this connection took the write lock (process.hrtime.bigint()), while it holds it. */
  writeSince: bigint | null = null;
  /** Its write transaction was rolled back for a waiting writer: the stream's next statements fail (sqld's rule). */
  timedOut = false;
  /** A PRAGMA or a read-only transaction changed its settings: they are restored before another stream has it. */
  settingsTouched = false;
  queryOnly = false;

  constructor(file: string) {
    this.db = new BetterSqlite3(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    // Waiting happens in LockGate, asynchronously: a busy timeout would stop the whole server while it waits.
    this.db.pragma("busy_timeout = 0");
    this.restoreSettings();
    this.db.defaultSafeIntegers(true);
  }

  /** libSQL is built with SQLITE_DEFAULT_FOREIGN_KEYS=1: sqld's connections enforce foreign keys. */
  restoreSettings() {
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("query_only = OFF");
    this.queryOnly = false;
    this.settingsTouched = false;
  }

  prepare(sql: string): BetterSqlite3.Statement {
    const cached = this.statements.get(sql);
    if (cached) return cached;
    let statement: BetterSqlite3.Statement;
    try {
      statement = this.db.prepare(sql);
    } catch (error) {
      throw prepareError(error);
    }
    if (statement.reader) statement.raw(true);
    if (this.statements.size >= STATEMENTS_PER_CONNECTION) this.statements.clear();
    this.statements.set(sql, statement);
    if (/^\s*PRAGMA\b/i.test(sql)) this.settingsTouched = true;
    return statement;
  }
}

function prepareError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (/more than one statement/.test(error.message))
    return new HranaError("SQL_MANY_STATEMENTS", "SQL string contains more than one statement");
  if (/no statements/.test(error.message))
    return new HranaError("SQL_NO_STATEMENT", "SQL string does not contain any statement");
  if (error instanceof BetterSqlite3.SqliteError) {
    return /syntax error|incomplete input|unrecognized token/.test(error.message)
      ? new HranaError("SQL_PARSE_ERROR", `SQL string could not be parsed: ${error.message}`)
      : new HranaError("SQL_INPUT_ERROR", `SQL input error: ${error.message}`);
  }
  return error;
}

function runError(error: unknown): unknown {
  if (error instanceof BetterSqlite3.SqliteError)
    return new HranaError(sqliteCode(error.code), `SQLite error: ${error.message}`);
  if (error instanceof RangeError)
    return new HranaError("ARGS_INVALID", `Arguments do not match SQL parameters: ${error.message}`);
  return error;
}

/** SQLITE_BUSY or SQLITE_LOCKED that waiting can cure: not BUSY_SNAPSHOT (a read transaction that fell behind). */
const isRetryable = (error: unknown) =>
  error instanceof BetterSqlite3.SqliteError &&
  /^SQLITE_(BUSY|LOCKED)/.test(error.code) &&
  error.code !== "SQLITE_BUSY_SNAPSHOT";
const executed = (error: unknown) =>
  error instanceof BetterSqlite3.SqliteError && !/^SQLITE_(BUSY|LOCKED)/.test(error.code);

export interface Arguments {
  args: SqliteValue[];
  namedArgs: Record<string, SqliteValue>;
  wantRows: boolean;
}

export class SqliteHost {
  private readonly file: string;
  /**
   * sqld's TXN_TIMEOUT: a write transaction that has held the lock this long is rolled back as soon as another
   * writer waits for it (an API process killed mid-transaction blocks the others no longer).
   */
  private readonly transactionTimeoutNs: bigint;
  /**
   * How long a statement waits for a lock held from outside (another process on the file) before SQLITE_BUSY is
   * answered. While one of the stand-in's own transactions holds it, a statement waits without limit, as in sqld's
   * queue of writers: each holder ends, or is rolled back at the transaction timeout.
   */
  private readonly busyLimitMs: number;
  private idle: Connection[] = [];
  private holders = new Set<Connection>();
  private gate = new LockGate();
  readonly ledger = new LockLedger();

  constructor(file: string, transactionTimeoutMs = 5_000) {
    this.file = resolve(file);
    this.transactionTimeoutNs = BigInt(Math.round(transactionTimeoutMs * 1e6));
    this.busyLimitMs = transactionTimeoutMs;
    mkdirSync(dirname(this.file), { recursive: true });
    // Opens the file once at start: a path that cannot be a database fails here, not on the first request.
    this.idle.push(new Connection(this.file));
  }

  acquire(): Connection {
    return this.idle.pop() ?? new Connection(this.file);
  }

  /** The stream is done with it: an open transaction is rolled back (its lock released) first. */
  release(connection: Connection) {
    this.rollback(connection);
    connection.timedOut = false;
    if (connection.settingsTouched) connection.restoreSettings();
    if (this.idle.length < IDLE_CONNECTIONS) this.idle.push(connection);
    else connection.db.close();
  }

  private rollback(connection: Connection) {
    if (!connection.db.inTransaction) return;
    const start = process.hrtime.bigint();
    try {
      connection.db.exec("ROLLBACK");
    } catch {
      // Already rolled back by SQLite: the bookkeeping below is all that is left.
    }
    this.settle(connection, false, start);
  }

  /** Rolls back the write transactions that have held the lock longer than the transaction timeout: any? */
  private rollBackStaleWriters(): boolean {
    const now = process.hrtime.bigint();
    let any = false;
    for (const holder of [...this.holders])
      if (holder.writeSince !== null && now - holder.writeSince >= this.transactionTimeoutNs) {
        this.rollback(holder);
        holder.timedOut = any = true;
      }
    return any;
  }

  /** Runs one statement; waits (asynchronously) for the write lock while SQLite answers SQLITE_BUSY. */
  async execute(connection: Connection, sql: string, { args, namedArgs, wantRows }: Arguments): Promise<StmtResult> {
    if (connection.timedOut) throw new HranaError("TRANSACTION_TIMEOUT", "Transaction timed out");
    const readOnlyBegin = READONLY_BEGIN.test(sql);
    const statement = connection.prepare(readOnlyBegin ? "BEGIN DEFERRED" : sql);
    const hasNamed = Object.keys(namedArgs).length > 0;
    if (hasNamed && args.length > 0)
      throw new HranaError(
        "ARGS_BOTH_POSITIONAL_AND_NAMED",
        "Specifying both positional and named arguments is not supported",
      );
    const bound: unknown[] = hasNamed ? [namedArgs] : args;
    const takesLock = !statement.readonly;
    let deadline: number | undefined;
    for (;;) {
      const start = process.hrtime.bigint();
      try {
        if (readOnlyBegin) {
          connection.db.pragma("query_only = ON");
          connection.queryOnly = connection.settingsTouched = true;
        }
        const result = run(connection, statement, bound, wantRows);
        this.settle(connection, takesLock, start);
        return result;
      } catch (error) {
        this.settle(connection, takesLock && executed(error), start);
        // Holding the lock itself, it waits for no one: a conflict within its own transaction is not cured by time.
        if (!isRetryable(error) || connection.writeSince !== null) throw runError(error);
        if (deadline === undefined || this.holders.size > 0) deadline = Date.now() + this.busyLimitMs;
        else if (Date.now() >= deadline) throw runError(error);
        if (this.rollBackStaleWriters()) continue;
        await this.gate.wait(deadline);
        this.gate.resumed();
      }
    }
  }

  /** Several statements in one text (no arguments, no rows). Not retried on SQLITE_BUSY: a part may have run. */
  sequence(connection: Connection, sql: string) {
    if (connection.timedOut) throw new HranaError("TRANSACTION_TIMEOUT", "Transaction timed out");
    const start = process.hrtime.bigint();
    if (/\bPRAGMA\b/i.test(sql)) connection.settingsTouched = true;
    try {
      connection.db.exec(sql);
      this.settle(connection, true, start);
    } catch (error) {
      this.settle(connection, executed(error), start);
      throw error instanceof BetterSqlite3.SqliteError &&
        /syntax error|incomplete input|unrecognized token/.test(error.message)
        ? prepareError(error)
        : runError(error);
    }
  }

  describe(connection: Connection, sql: string) {
    const statement = connection.prepare(sql);
    return {
      params: parameterNames(sql).map((name) => ({ name })),
      cols: statement.reader ? columnsOf(statement).map(({ name, decltype }) => ({ name: name ?? "", decltype })) : [],
      is_explain: /^\s*EXPLAIN\b/i.test(sql),
      is_readonly: statement.readonly,
    };
  }

  /**
   * After each statement: the connection took the write lock when it ran a writing statement (or BEGIN IMMEDIATE)
   * and holds it until it leaves its transaction; that is when the holding time is recorded and the next waiter
   * woken. A write outside a transaction holds it for its own run.
   */
  private settle(connection: Connection, wrote: boolean, start: bigint) {
    if (wrote && connection.writeSince === null) connection.writeSince = start;
    if (!connection.db.inTransaction) {
      if (connection.writeSince !== null) {
        this.ledger.record(Number(process.hrtime.bigint() - connection.writeSince) / 1e6);
        connection.writeSince = null;
      }
      if (connection.queryOnly) {
        connection.db.pragma("query_only = OFF");
        connection.queryOnly = false;
      }
    }
    if (connection.writeSince === null) this.holders.delete(connection);
    else this.holders.add(connection);
    if (this.holders.size === 0) this.gate.wakeNext();
  }

  close() {
    for (const connection of this.idle) connection.db.close();
    this.idle = [];
  }
}

const columns = new WeakMap<BetterSqlite3.Statement, Col[]>();
function columnsOf(statement: BetterSqlite3.Statement): Col[] {
  let cols = columns.get(statement);
  if (!cols) {
    cols = statement.columns().map((column) => ({ name: column.name, decltype: column.type }));
    columns.set(statement, cols);
  }
  return cols;
}

function run(connection: Connection, statement: BetterSqlite3.Statement, bound: unknown[], wantRows: boolean) {
  if (statement.reader && wantRows) {
    const rows = statement.all(...bound) as unknown[][];
    const result: StmtResult = {
      cols: columnsOf(statement),
      rows: rows.map((row) => row.map(valueToJson)),
      affected_row_count: 0,
      last_insert_rowid: null,
    };
    if (!statement.readonly) {
      // INSERT … RETURNING: the counts `run()` would have given.
      const [changes, rowid] = connection.prepare("SELECT changes(), last_insert_rowid()").get() as bigint[];
      result.affected_row_count = Number(changes);
      result.last_insert_rowid = String(rowid);
    }
    return result;
  }
  const info = statement.run(...bound);
  return {
    cols: statement.reader ? columnsOf(statement) : [],
    rows: [],
    affected_row_count: statement.readonly ? 0 : info.changes,
    last_insert_rowid: statement.readonly ? null : String(info.lastInsertRowid),
  };
}

/**
 * The statement's parameters as SQLite numbers them (better-sqlite3 does not tell): `?` takes the next number,
 * `?NNN` that number, a name the number it first had. Skips quoted text and comments.
 */
export function parameterNames(sql: string): (string | null)[] {
  const names: (string | null)[] = [];
  const token = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|\?(\d*)|[:@$][\w$]+/g;
  for (const match of sql.matchAll(token)) {
    const [text, number] = match;
    if (text.startsWith("?")) {
      if (number) names[Number(number) - 1] ??= text;
      else names.push(null);
    } else if (/^[:@$]/.test(text) && !names.includes(text)) names.push(text);
  }
  return Array.from(names, (name) => name ?? null);
}
