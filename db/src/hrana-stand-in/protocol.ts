// The JSON shapes of Hrana over HTTP that the stand-in reads and writes (tursodatabase/libsql/docs/HRANA_3_SPEC.md),
// the conversion of its values to and from better-sqlite3's, and the errors as sqld words them. Anything malformed is a ProtocolError: the request is answered 400, as sqld does, and nothing runs.

/** A malformed request: answered 400 in text, the way sqld answers its protocol errors. */
export class ProtocolError extends Error {}

/** A statement's or request's failure, sent back in Hrana's `Error` shape: `{ message, code }`. */
export class HranaError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
  toJSON() {
    return { message: this.message, code: this.code };
  }
}

export type Value =
  | { type: "null" }
  | { type: "integer"; value: string }
  | { type: "float"; value: number }
  | { type: "text"; value: string }
  | { type: "blob"; base64: string };
/** What better-sqlite3 binds and answers (integers as bigint: `defaultSafeIntegers`). */
export type SqliteValue = null | bigint | number | string | Buffer;

export interface Stmt {
  sql?: string;
  sqlId?: number;
  args: SqliteValue[];
  namedArgs: Record<string, SqliteValue>;
  wantRows: boolean;
}
export type BatchCond =
  | { type: "ok" | "error"; step: number }
  | { type: "not"; cond: BatchCond }
  | { type: "and" | "or"; conds: BatchCond[] }
  | { type: "is_autocommit" };
export interface BatchStep {
  condition?: BatchCond;
  stmt: Stmt;
}
export type StreamRequest =
  | { type: "close" | "get_autocommit" }
  | { type: "execute"; stmt: Stmt }
  | { type: "batch"; steps: BatchStep[] }
  | { type: "sequence" | "describe"; sql?: string; sqlId?: number }
  | { type: "store_sql"; sqlId: number; sql: string }
  | { type: "close_sql"; sqlId: number };

export interface Col {
  name: string | null;
  decltype: string | null;
}
export interface StmtResult {
  cols: Col[];
  rows: Value[][];
  affected_row_count: number;
  last_insert_rowid: string | null;
}

const MIN_INTEGER = -(2n ** 63n);
const MAX_INTEGER = 2n ** 63n - 1n;

type Json = Record<string, unknown>;
const object = (value: unknown, what: string): Json => {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ProtocolError(`${what} must be an object`);
  return value as Json;
};
const array = (value: unknown, what: string): unknown[] => {
  if (!Array.isArray(value)) throw new ProtocolError(`${what} must be an array`);
  return value;
};
const optional = <T>(value: unknown, read: (value: unknown) => T): T | undefined =>
  value === undefined || value === null ? undefined : read(value);
const string = (what: string) => (value: unknown) => {
  if (typeof value !== "string") throw new ProtocolError(`${what} must be a string`);
  return value;
};
const int32 = (what: string) => (value: unknown) => {
  if (!Number.isInteger(value) || Math.abs(value as number) > 2 ** 31)
    throw new ProtocolError(`${what} must be an int32`);
  return value as number;
};

export function valueFromJson(raw: unknown): SqliteValue {
  const value = object(raw, "a value");
  switch (value.type) {
    case "null":
      return null;
    case "integer": {
      const text = string("an integer's value")(value.value);
      if (!/^-?\d+$/.test(text)) throw new ProtocolError(`${text} is not an integer`);
      const integer = BigInt(text);
      if (integer < MIN_INTEGER || integer > MAX_INTEGER) throw new ProtocolError(`${text} is not a 64-bit integer`);
      return integer;
    }
    case "float":
      if (typeof value.value !== "number") throw new ProtocolError("a float's value must be a number");
      return value.value;
    case "text":
      return string("a text's value")(value.value);
    case "blob":
      return Buffer.from(string("a blob's base64")(value.base64), "base64");
    default:
      throw new ProtocolError(`unknown value type ${JSON.stringify(value.type)}`);
  }
}

export function valueToJson(value: unknown): Value {
  if (value === null || value === undefined) return { type: "null" };
  if (typeof value === "bigint") return { type: "integer", value: String(value) };
  if (typeof value === "number") return { type: "float", value };
  if (typeof value === "string") return { type: "text", value };
  if (value instanceof Uint8Array) return { type: "blob", base64: Buffer.from(value).toString("base64") };
  throw new Error(`SQLite answered a value of type ${typeof value}`);
}

function stmtFromJson(raw: unknown): Stmt {
  const stmt = object(raw, "a statement");
  const namedArgs: Record<string, SqliteValue> = {};
  for (const rawArg of array(stmt.named_args ?? [], "named_args")) {
    const arg = object(rawArg, "a named argument");
    // SQLite's names carry their sign (`:a`, `@a`, `$a`); better-sqlite3 takes them without it, for any sign.
    namedArgs[string("an argument's name")(arg.name).replace(/^[:@$]/, "")] = valueFromJson(arg.value);
  }
  const wantRows = stmt.want_rows ?? true;
  if (typeof wantRows !== "boolean") throw new ProtocolError("want_rows must be a boolean");
  return {
    sql: optional(stmt.sql, string("sql")),
    sqlId: optional(stmt.sql_id, int32("sql_id")),
    args: array(stmt.args ?? [], "args").map(valueFromJson),
    namedArgs,
    wantRows,
  };
}

function condFromJson(raw: unknown): BatchCond {
  const cond = object(raw, "a condition");
  switch (cond.type) {
    case "ok":
    case "error": {
      const step = cond.step;
      if (!Number.isInteger(step) || (step as number) < 0) throw new ProtocolError("a condition's step must be ≥ 0");
      return { type: cond.type, step: step as number };
    }
    case "not":
      return { type: "not", cond: condFromJson(cond.cond) };
    case "and":
    case "or":
      return { type: cond.type, conds: array(cond.conds, "conds").map(condFromJson) };
    case "is_autocommit":
      return { type: "is_autocommit" };
    default:
      throw new ProtocolError(`unknown condition type ${JSON.stringify(cond.type)}`);
  }
}

export function batchFromJson(raw: unknown): BatchStep[] {
  return array(object(raw, "a batch").steps, "steps").map((rawStep) => {
    const step = object(rawStep, "a batch step");
    return { condition: optional(step.condition, condFromJson), stmt: stmtFromJson(step.stmt) };
  });
}

export function requestFromJson(raw: unknown): StreamRequest {
  const request = object(raw, "a request");
  switch (request.type) {
    case "close":
    case "get_autocommit":
      return { type: request.type };
    case "execute":
      return { type: "execute", stmt: stmtFromJson(request.stmt) };
    case "batch":
      return { type: "batch", steps: batchFromJson(request.batch) };
    case "sequence":
    case "describe":
      return {
        type: request.type,
        sql: optional(request.sql, string("sql")),
        sqlId: optional(request.sql_id, int32("sql_id")),
      };
    case "store_sql":
      return { type: "store_sql", sqlId: int32("sql_id")(request.sql_id), sql: string("sql")(request.sql) };
    case "close_sql":
      return { type: "close_sql", sqlId: int32("sql_id")(request.sql_id) };
    default:
      throw new ProtocolError(`unknown request type ${JSON.stringify(request.type)}`);
  }
}

/** The body of `POST …/pipeline` (`baton` null opens a stream) or `POST v3/cursor`. */
export function bodyFromJson(raw: unknown): Json & { baton: string | null } {
  const body = object(raw, "the body");
  return { ...body, baton: optional(body.baton, string("baton")) ?? null };
}

/** sqld's codes: SQLite's primary result code, SQLITE_ERROR named SQLITE_UNKNOWN (rusqlite's name for it). */
export function sqliteCode(extended: string): string {
  const primary = extended.split("_").slice(0, 2).join("_");
  return primary === "SQLITE_ERROR" ? "SQLITE_UNKNOWN" : primary;
}
