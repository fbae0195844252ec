// Structured logs (docs/decisions/0023): one JSON line per event in production and tests, pretty lines in
// development; a request id on every line written while a request is handled; never a password, token or secret.
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import pino, { type DestinationStream, type LogFn } from "pino";
import pretty from "pino-pretty";
import { directAnswer } from "./direct-answer.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** This request's id: the caller's when safe (X-Request-Id), else its page's, else a new one. */
    requestId: string;
    /** This request's logger: its lines carry `reqId`. */
    logger: pino.Logger;
  }
}

export type Logger = pino.Logger;

/** What code that logs needs: the process's logger, a request's, or a child of either. */
export interface Log {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
}

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Field names whose values never reach a log, at any depth: credentials, the Authorization / Cookie / Set-Cookie
 * headers, keys, card data. A whole field is replaced, so a new secret-bearing field under one of these names is
 * covered without a list to keep up to date.
 */
const SECRET_FIELD = /pass(word|phrase)?|token|secret|authori[sz]ation|cookie|session|api[-_]?key|card|cvc|cvv|iban/i;
const REDACTED = "[redacted]";

/** A copy of `value` with every secret-named field replaced; errors are left to the error serializer. */
function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    copy[key] = SECRET_FIELD.test(key) ? REDACTED : redact(item, depth + 1);
  return copy;
}

/**
 * A failed query's error repeats its parameters (drizzle: "Failed query: … params: …"), which may be a token or a
 * reset code: they are cut from the message and the stack.
 */
const QUERY_PARAMS = /\nparams: [^\n]*/g;
function serializeError(error: Error) {
  const serialized = redact(pino.stdSerializers.err(error)) as Record<string, unknown>;
  for (const key of ["message", "stack"])
    if (typeof serialized[key] === "string")
      serialized[key] = serialized[key].replace(QUERY_PARAMS, "\nparams: [redacted]");
  return serialized;
}

/** One line each, a request's as `request GET /path 200 12 ms`, its other fields (the id) after it. */
const PRETTY = {
  colorize: true,
  singleLine: true,
  translateTime: "SYS:HH:MM:ss.l",
  ignore: "pid,hostname,req,res,responseTime",
  messageFormat: "{msg}{if req} {req.method} {req.path} {res.status} {responseTime} ms{end}",
};

const isDevelopment = () => process.env.NODE_ENV !== "production" && process.env.NODE_ENV !== "test";

/**
 * A logger at `level`, writing to `destination` (stdout by default) JSON lines, or pretty ones in development
 * (NODE_ENV neither production nor test).
 */
export function createLogger(
  options: { level?: LogLevel; destination?: DestinationStream; isPretty?: boolean } = {},
): Logger {
  const isPretty = options.isPretty ?? isDevelopment();
  const destination = options.destination ?? (isPretty ? pretty(PRETTY) : undefined);
  return pino(
    {
      level: options.level ?? "info",
      formatters: { log: (object) => redact(object) as Record<string, unknown>, bindings: (b) => redact(b) as object },
      serializers: { err: serializeError },
    },
    destination,
  );
}

/** The process's logger: level from LOG_LEVEL (env.ts refuses an unknown one), `info` by default. */
export const log = createLogger({
  level: LOG_LEVELS.find((level) => level === process.env.LOG_LEVEL) ?? "info",
});

/**
 * Paths that carry a secret in one of their segments (docs/specification.md §2.3: the ticket office's login links and
 * order links, both as pages and through the API): the segment is replaced in what is logged. A query string is never
 * logged.
 */
const SECRET_SEGMENTS: [RegExp, string][] = [
  [/(\/login\/verify\/[^/]+\/)[^/]+/, `$1${REDACTED}`],
  [/(\/login\/third-party\/)[^/]+/, `$1${REDACTED}`],
  [/(\/orders\/)[^/]+/, `$1${REDACTED}`],
];
export function pathForLog(path: string): string {
  return SECRET_SEGMENTS.reduce((logged, [pattern, replacement]) => logged.replace(pattern, replacement), path);
}

/** A safe request id from the caller (a proxy's, a load balancer's) is kept: short, letters, digits, `-_=`. */
const REQUEST_ID_MAX_LENGTH = 64;
const UNSAFE_IN_REQUEST_ID = /[^\w\-=]/;

/**
 * Gives each request an id (answered in X-Request-Id) and a logger whose every line carries it (`c.var.logger`),
 * and writes one line when it is answered: method, path (see `pathForLog`), status, duration in ms. A call the
 * product makes to itself (the ticket office's in-process API calls) keeps the id of the page that made it, passed
 * as `requestId` in its env, and its own line is written at debug level: the page's line is the one that counts.
 * One child logger a request (hono-pino made four, and merged the line's fields with defu: a twentieth of an add
 * to a basket's CPU), and the header set on the answer itself, never through `c.header` once it is made (which
 * turns the answer into a web Response written out as a stream).
 */
export function logRequests(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const parentId = (c.env as { requestId?: string } | undefined)?.requestId;
    const given = c.req.header("x-request-id");
    const id =
      given && given.length <= REQUEST_ID_MAX_LENGTH && !UNSAFE_IN_REQUEST_ID.test(given)
        ? given
        : (parentId ?? randomUUID());
    c.set("requestId", id);
    const requestLogger = logger.child({ reqId: id });
    c.set("logger", requestLogger);
    // Before the handler: on a direct request's Node answer (lib/direct-answer.ts), else on the context, where an
    // answer made with c.json or c.body takes it from.
    const outgoing = directAnswer(c);
    if (outgoing) outgoing.setHeader("X-Request-Id", id);
    else if (!parentId) c.header("X-Request-Id", id);
    const startedAt = performance.now();
    await next();
    const responseTime = Math.round(performance.now() - startedAt);
    // A Response the handler made itself (a page, a file) does not have it yet.
    if (!outgoing && !parentId) {
      const headers = c.res.headers;
      if (!headers.has("X-Request-Id")) headers.set("X-Request-Id", id);
    }
    const status = c.res.status;
    const level = status >= 500 ? "error" : parentId ? "debug" : "info";
    // Never the error's message: it is logged, with its stack, where it is handled (app.ts).
    requestLogger[level](
      { req: { method: c.req.method, path: pathForLog(c.req.path) }, res: { status }, responseTime },
      "request",
    );
  };
}
