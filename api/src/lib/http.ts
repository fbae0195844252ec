// The edge: parse a request (snake_case in, zod-validated camelCase out) and answer (camelCase in, snake_case out).

import { PASSWORD_MESSAGES } from "@ticketing/shared/passwords";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ZodType, z } from "zod";
import { camelizeKeys, snakifyKeys, toSnake } from "./case.ts";
import { DomainError } from "./errors.ts";

// Shared messages become i18n keys, so the error mapper answers them in the caller's language.
const MESSAGE_KEYS = new Map<string, string>(
  Object.entries(PASSWORD_MESSAGES).map(([key, text]) => [text, `password.${key}`]),
);

/** Turns a ZodError into our 400 with one message per issue and a snake_case field map. */
export function zodToDomainError(error: z.ZodError): DomainError {
  const fieldErrors: Record<string, string> = {};
  const messages = error.issues.map((issue) => {
    const field = issue.path.map((p) => (typeof p === "string" ? toSnake(p) : String(p))).join(".");
    if (issue.code === "unrecognized_keys") {
      const keys = issue.keys.map(toSnake).join(", ");
      return `Unknown field${issue.keys.length > 1 ? "s" : ""}: ${keys}`;
    }
    const message = MESSAGE_KEYS.get(issue.message) ?? issue.message;
    if (field && !(field in fieldErrors)) fieldErrors[field] = message;
    // An i18n key (`errors.iban_invalid`) stays whole so the error mapper can translate it.
    const isKey = MESSAGE_KEYS.has(issue.message) || /^[a-z_]+\.[a-z_.]+$/.test(message);
    return isKey || !field ? message : `${field}: ${message}`;
  });
  return new DomainError("invalid", messages, Object.keys(fieldErrors).length ? fieldErrors : undefined);
}

export function parseWith<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw zodToDomainError(result.error);
  return result.data;
}

/** Reads a JSON body (or a form body), converts its keys to camelCase and validates it. */
export async function readBody<S extends ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header("content-type") ?? "";
  let raw: unknown;
  if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
    const form = await c.req.parseBody().catch(() => {
      throw new DomainError("invalid", ["errors.body_form"]);
    });
    raw = Object.fromEntries(Object.entries(form));
  } else {
    const text = await c.req.text();
    try {
      raw = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      throw new DomainError("invalid", ["errors.body_json"]);
    }
  }
  return parseWith(schema, camelizeKeys(raw));
}

/** Validates the query string (single values; `id` lists as repeated keys or comma-joined). */
export function readQuery<S extends ZodType>(c: Context, schema: S): z.output<S> {
  const query: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(c.req.queries()))
    query[key] = values.length > 1 ? values : (values[0] ?? "");
  return parseWith(schema, camelizeKeys(query));
}

export function answer(c: Context, data: unknown, status: ContentfulStatusCode = 200) {
  return c.json(snakifyKeys(data) as object, status);
}

/**
 * An id is a positive safe integer: a JSON number, or written in decimal digits (a path, a query, a form).
 * Anything else gives null: `true`, `[1]`, `"0x1"`, `"1e3"`, `" 1"`, `"01"`, `1.5`, `0`, `-1`, 2^53.
 */
export function parseId(value: unknown): number | null {
  const id =
    typeof value === "number" ? value : typeof value === "string" && /^[1-9]\d*$/.test(value) ? Number(value) : 0;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** An id from a path parameter; anything else is a 404, as for an unknown id. */
export function idParam(c: Context, name = "id"): number {
  const id = parseId(c.req.param(name));
  if (id === null) throw new DomainError("not_found", ["errors.not_found"]);
  return id;
}

/** An id in a body or a query (see parseId); anything else is a 400 naming the field. */
export const zId = z
  .custom<number | string>((value) => parseId(value) !== null, { error: "errors.id_invalid" })
  .transform((value) => parseId(value) as number);
export const zIsoDate = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());
export const zBooleanFlag = z.union([
  z.boolean(),
  z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1"),
]);
