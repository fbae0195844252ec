// A local stand-in for a libSQL server (sqld, Turso) on one SQLite file: it answers the Hrana-over-HTTP requests
// that `@libsql/client` makes for `http://` URLs (tursodatabase/libsql/docs/HRANA_3_SPEC.md and http_api.md),
// so the product's libSQL code path runs over the wire in tests and the bench, where no sqld can be installed.
// Test infrastructure, not product.
//
// What it does: JSON pipelines on `/v2/pipeline` and `/v3/pipeline` (execute, batch with ok / error / not / and /
// or / is_autocommit conditions, sequence, describe, store_sql, close_sql, get_autocommit, close) and `/v3/cursor`;
// `GET /v2` and `/v3` answer 200 and `/v3-protobuf` 404, so a client that probes takes JSON (@libsql/client 0.15
// does not probe: it speaks v2). Each stream (baton) has its own SQLite connection from a pool, kept across the
// HTTP requests of an interactive transaction; a baton is good for one request, and a stream idle for 10 s is
// closed and its transaction rolled back, as in sqld. Errors carry sqld's codes (SQLITE_CONSTRAINT, SQL_PARSE_ERROR,
// SQL_INPUT_ERROR, ARGS_INVALID…); a malformed body is answered 400 and an expired stream 400 STREAM_EXPIRED.
// Connections never wait inside SQLite (busy_timeout 0): a statement that meets SQLITE_BUSY waits in a queue woken
// when a write transaction ends, then retries; the event loop keeps serving everyone else meanwhile. As in sqld's
// queue of writers, it waits as long as the stand-in's own transactions hold the lock, and a write transaction that
// has held it for 5 s while another writer waits is rolled back, its stream's next request failing with
// TRANSACTION_TIMEOUT (so an API process killed mid-transaction blocks the others for 5 s at most). A lock held
// from outside (another process on the file) is waited for 5 s, then SQLITE_BUSY is answered. With `authToken`, a
// request without `Authorization: Bearer <token>` gets 401, as from Turso.
// `delayMs` holds each Hrana request that long before handling it: a network round trip.
//
// What it measures (`stats()`, `GET /stand-in/stats`; `POST /stand-in/stats/reset` clears): `requests`, the Hrana
// HTTP requests (pipelines and cursors, i.e. round trips); `streamsOpen`; and for each write transaction, how long
// its connection held SQLite's write lock: from the start of the statement that took it (BEGIN IMMEDIATE, or the
// first writing statement of a deferred transaction) to the end of the statement that released it (COMMIT,
// ROLLBACK, a failure SQLite rolled back, or the stream's close or expiry), timed with process.hrtime in this
// process. It includes every round trip the client makes while holding the lock (and the injected delay) and the
// stand-in's own work between statements, and SQLite's automatic WAL checkpoint when a COMMIT runs one (every
// 1,000 pages written); it excludes the time spent waiting for the lock. A batch's BEGIN … COMMIT is one
// transaction; a writing statement outside a transaction is one, lasting its own run.
//
// What it leaves out: Protobuf encodings, WebSocket Hrana, the v1 HTTP API (`/v1/execute`, `/v1/batch`),
// replication, namespaces, JWT verification (the token is compared as a string), sqld's limit on response size,
// and durability against power loss (synchronous = NORMAL, like the product's own SQLite). `sequence` is not
// retried on SQLITE_BUSY (a part of it may have run) and counts as a write. `:memory:` is not supported: each
// stream has its own connection, so they must share a file.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type BatchCond,
  type BatchStep,
  batchFromJson,
  bodyFromJson,
  HranaError,
  ProtocolError,
  requestFromJson,
  type Stmt,
  type StmtResult,
  type StreamRequest,
} from "./protocol.ts";
import { type Connection, type LockStats, SqliteHost } from "./sqlite.ts";

export interface HranaStandInOptions {
  /** The SQLite file (created with its folder if missing). */
  file: string;
  /** 0 or absent: any free port. */
  port?: number;
  host?: string;
  /** Waited before each Hrana request is handled (ms). */
  delayMs?: number;
  /** When given, every Hrana request must carry `Authorization: Bearer <authToken>`. */
  authToken?: string;
  /** How long an idle stream lives before it is closed and its transaction rolled back (sqld: 10 s). */
  streamIdleMs?: number;
  /** How long a write transaction may hold the lock while another writer waits before it is rolled back (sqld: 5 s). */
  transactionTimeoutMs?: number;
}

export interface HranaStandInStats extends LockStats {
  requests: number;
  streamsOpen: number;
}

export interface HranaStandIn {
  /** The URL to give `createClient` / DATABASE_URL. */
  url: string;
  port: number;
  stats(): HranaStandInStats;
  resetStats(): void;
  setDelayMs(ms: number): void;
  close(): Promise<void>;
}

interface Stream {
  connection: Connection | null;
  sqls: Map<number, string>;
  closed: boolean;
  idle?: NodeJS.Timeout;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** sqld keeps at most 50 stored SQL texts per stream, of at most 5 kB each. */
const MAX_STORED_SQL = 50;
const MAX_STORED_SQL_BYTES = 5_000;
/** An expired baton is still told apart from a forged one for this long, as sqld does. */
const EXPIRED_MEMORY_MS = 5 * 60_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stepResult = (outcome: StmtResult | HranaError | undefined) =>
  outcome instanceof HranaError ? null : (outcome ?? null);

export async function startHranaStandIn(options: HranaStandInOptions): Promise<HranaStandIn> {
  const host = options.host ?? "127.0.0.1";
  const streamIdleMs = options.streamIdleMs ?? 10_000;
  const sqlite = new SqliteHost(options.file, options.transactionTimeoutMs);
  const streams = new Set<Stream>();
  const batons = new Map<string, Stream>();
  const expired = new Set<string>();
  let delayMs = 0;
  let requests = 0;

  const setDelayMs = (ms: number) => {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`delayMs must be a number ≥ 0, not ${ms}`);
    delayMs = ms;
  };
  setDelayMs(options.delayMs ?? 0);

  function closeStream(stream: Stream) {
    stream.closed = true;
    clearTimeout(stream.idle);
    streams.delete(stream);
    if (stream.connection) sqlite.release(stream.connection);
    stream.connection = null;
  }

  /** The stream a baton names, taken out of the map: the baton is spent, and a second use of it is refused. */
  function take(baton: string | null): Stream {
    if (baton === null) {
      const stream: Stream = { connection: null, sqls: new Map(), closed: false };
      streams.add(stream);
      return stream;
    }
    const stream = batons.get(baton);
    if (!stream) {
      if (expired.has(baton)) throw new HranaError("STREAM_EXPIRED", "The stream has expired due to inactivity");
      throw new ProtocolError("Invalid baton");
    }
    batons.delete(baton);
    clearTimeout(stream.idle);
    return stream;
  }

  /** A fresh baton for the stream's next request, or null once it is closed; an unused one expires. */
  function handOver(stream: Stream): string | null {
    if (stream.closed) return null;
    const baton = randomBytes(18).toString("base64url");
    batons.set(baton, stream);
    stream.idle = setTimeout(() => {
      batons.delete(baton);
      expired.add(baton);
      setTimeout(() => expired.delete(baton), EXPIRED_MEMORY_MS).unref();
      closeStream(stream);
    }, streamIdleMs);
    stream.idle.unref();
    return baton;
  }

  function connectionOf(stream: Stream): Connection {
    if (stream.closed) throw new ProtocolError("The stream is closed");
    stream.connection ??= sqlite.acquire();
    return stream.connection;
  }

  function sqlOf(stream: Stream, { sql, sqlId }: { sql?: string; sqlId?: number }): string {
    if (sql !== undefined && sqlId !== undefined) throw new ProtocolError("Both sql and sql_id were given");
    if (sql !== undefined) return sql;
    if (sqlId === undefined) throw new ProtocolError("Neither sql nor sql_id was given");
    const stored = stream.sqls.get(sqlId);
    if (stored === undefined) throw new ProtocolError(`SQL text ${sqlId} was not found`);
    return stored;
  }

  const execute = (stream: Stream, stmt: Stmt) => sqlite.execute(connectionOf(stream), sqlOf(stream, stmt), stmt);

  /** Runs the steps in order; a step whose condition is false is skipped (neither result nor error). */
  async function batch(stream: Stream, steps: BatchStep[], version: number, onStep?: (step: number) => void) {
    const outcomes: (StmtResult | HranaError | undefined)[] = [];
    const holds = (cond: BatchCond): boolean => {
      switch (cond.type) {
        case "ok":
          return outcomes[cond.step] !== undefined && !(outcomes[cond.step] instanceof HranaError);
        case "error":
          return outcomes[cond.step] instanceof HranaError;
        case "not":
          return !holds(cond.cond);
        case "and":
          return cond.conds.every(holds);
        case "or":
          return cond.conds.some(holds);
        case "is_autocommit":
          if (version < 3) throw new ProtocolError("The is_autocommit condition needs Hrana 3");
          return !connectionOf(stream).db.inTransaction;
      }
    };
    for (const [index, { condition, stmt }] of steps.entries()) {
      if (condition && !holds(condition)) continue;
      onStep?.(index);
      try {
        outcomes[index] = await execute(stream, stmt);
      } catch (error) {
        if (!(error instanceof HranaError)) throw error;
        outcomes[index] = error;
      }
    }
    return outcomes;
  }

  /** Runs one request; a transaction timeout fails all of the one request (execute, batch, sequence) that sees it. */
  async function perform(stream: Stream, request: StreamRequest, version: number): Promise<object> {
    try {
      return await performOnce(stream, request, version);
    } finally {
      if (stream.connection && ["execute", "batch", "sequence"].includes(request.type))
        stream.connection.timedOut = false;
    }
  }

  async function performOnce(stream: Stream, request: StreamRequest, version: number): Promise<object> {
    switch (request.type) {
      case "close":
        closeStream(stream);
        return {};
      case "execute":
        return { result: await execute(stream, request.stmt) };
      case "batch": {
        const outcomes = await batch(stream, request.steps, version);
        return {
          result: {
            step_results: request.steps.map((_, i) => stepResult(outcomes[i])),
            step_errors: request.steps.map((_, i) => (outcomes[i] instanceof HranaError ? outcomes[i] : null)),
          },
        };
      }
      case "sequence":
        sqlite.sequence(connectionOf(stream), sqlOf(stream, request));
        return {};
      case "describe":
        return { result: sqlite.describe(connectionOf(stream), sqlOf(stream, request)) };
      case "store_sql":
        if (stream.sqls.has(request.sqlId)) throw new ProtocolError(`SQL text ${request.sqlId} already exists`);
        if (stream.sqls.size >= MAX_STORED_SQL)
          throw new HranaError("SQL_STORE_TOO_MANY", `The server already stores ${MAX_STORED_SQL} SQL texts`);
        if (Buffer.byteLength(request.sql) > MAX_STORED_SQL_BYTES)
          throw new HranaError("SQL_STORE_TOO_LARGE", `The statement is too large to be stored`);
        stream.sqls.set(request.sqlId, request.sql);
        return {};
      case "close_sql":
        stream.sqls.delete(request.sqlId);
        return {};
      case "get_autocommit":
        if (version < 3) throw new ProtocolError("The get_autocommit request needs Hrana 3");
        return { is_autocommit: !connectionOf(stream).db.inTransaction };
    }
  }

  async function pipeline(body: unknown, version: number) {
    const { baton, requests: raw } = bodyFromJson(body);
    if (!Array.isArray(raw)) throw new ProtocolError("requests must be an array");
    const requests = raw.map(requestFromJson);
    const stream = take(baton);
    try {
      const results = [];
      for (const request of requests) {
        try {
          results.push({ type: "ok", response: { type: request.type, ...(await perform(stream, request, version)) } });
        } catch (error) {
          if (!(error instanceof HranaError)) throw error;
          results.push({ type: "error", error });
        }
      }
      return { baton: handOver(stream), base_url: null, results };
    } catch (error) {
      closeStream(stream);
      throw error;
    }
  }

  /** `v3/cursor`: the batch's outcome as lines of JSON (all of it at once: the stand-in does not stream rows). */
  async function cursor(body: unknown): Promise<string> {
    const parsed = bodyFromJson(body);
    const steps = batchFromJson(parsed.batch);
    const stream = take(parsed.baton);
    try {
      const outcomes = await batch(stream, steps, 3);
      const lines: object[] = [{ baton: handOver(stream), base_url: null }];
      for (const [step, outcome] of outcomes.entries()) {
        if (outcome instanceof HranaError) lines.push({ type: "step_error", step, error: outcome });
        if (!outcome || outcome instanceof HranaError) continue;
        lines.push({ type: "step_begin", step, cols: outcome.cols });
        for (const row of outcome.rows) lines.push({ type: "row", row });
        const { affected_row_count, last_insert_rowid } = outcome;
        lines.push({ type: "step_end", affected_row_count, last_insert_rowid });
      }
      return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
    } catch (error) {
      closeStream(stream);
      throw error;
    }
  }

  async function readJson(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new ProtocolError("The body is too large");
      chunks.push(chunk as Buffer);
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
    } catch (error) {
      throw new ProtocolError(`The body is not JSON: ${(error as Error).message}`);
    }
  }

  const send = (res: ServerResponse, status: number, body: unknown, type = "application/json") =>
    void res
      .writeHead(status, { "content-type": type })
      .end(type === "application/json" ? JSON.stringify(body) : String(body));

  const stats = (): HranaStandInStats => ({ ...sqlite.ledger.stats(), requests, streamsOpen: streams.size });

  /** The stand-in's own controls, for the tests and the bench: not Hrana, not authenticated, never delayed. */
  async function control(req: IncomingMessage, res: ServerResponse, path: string) {
    if (req.method === "GET" && path === "/stand-in/stats") return send(res, 200, stats());
    if (req.method === "POST" && path === "/stand-in/stats/reset") {
      sqlite.ledger.reset();
      requests = 0;
      return send(res, 200, stats());
    }
    if (req.method === "POST" && path === "/stand-in/delay") {
      const { ms } = ((await readJson(req)) ?? {}) as { ms?: unknown };
      if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0)
        return send(res, 400, "ms must be a number ≥ 0", "text/plain");
      setDelayMs(ms);
      return send(res, 200, { delayMs });
    }
    send(res, 404, "Not found", "text/plain");
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://stand-in").pathname.replace(/\/+$/, "") || "/";
    if (path.startsWith("/stand-in/")) return control(req, res, path);
    if (req.method === "GET" && path === "/health") return send(res, 200, "", "text/plain");
    if (options.authToken !== undefined && req.headers.authorization !== `Bearer ${options.authToken}`)
      // sqld's shape for an authentication failure: @libsql/client reports it as SERVER_ERROR, HTTP status 401.
      return send(res, 401, { error: "Authorization failed: the token is missing or invalid" });
    if (delayMs > 0) await pause(delayMs);
    if (req.method === "GET") {
      if (path === "/" || path === "/v2" || path === "/v3")
        return send(res, 200, "Hello, this is a Hrana over HTTP stand-in (JSON, v2 and v3)", "text/plain");
      return send(res, 404, "Not found", "text/plain");
    }
    const route = req.method === "POST" ? /^\/(v2|v3)\/(pipeline|cursor)$/.exec(path) : null;
    if (!route || (route[1] === "v2" && route[2] === "cursor")) return send(res, 404, "Not found", "text/plain");
    requests++;
    const body = await readJson(req);
    if (route[2] === "pipeline") return send(res, 200, await pipeline(body, route[1] === "v3" ? 3 : 2));
    send(res, 200, await cursor(body), "text/plain");
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (error instanceof ProtocolError) send(res, 400, error.message, "text/plain");
      else if (error instanceof HranaError) send(res, 400, error);
      else
        send(res, 500, `The stand-in failed: ${error instanceof Error ? error.message : String(error)}`, "text/plain");
    });
  });
  // Longer than the client's keep-alive: a request sent on a connection just as the server closed it would fail.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    stats,
    resetStats() {
      sqlite.ledger.reset();
      requests = 0;
    },
    setDelayMs,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const stream of [...streams]) closeStream(stream);
      batons.clear();
      sqlite.close();
    },
  };
}
