// The edge: parse a request (snake_case in, zod-validated camelCase out) and answer (camelCase in, snake_case out).

import { Readable } from "node:stream";
import { camelizeKeys, snakifyKeys, toSnake } from "@ticketing/shared/case";
import { PASSWORD_MESSAGES } from "@ticketing/shared/passwords";
import { parseId } from "@ticketing/shared/schemas/common";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodType, z } from "zod";
import { DomainError, type Message } from "./errors.ts";

// Shared messages become i18n keys, so the error mapper answers them in the caller's language.
const MESSAGE_KEYS = new Map<string, string>(
  Object.entries(PASSWORD_MESSAGES).map(([key, text]) => [text, `password.${key}`]),
);
const isKey = (text: string) => /^[a-z_]+\.[a-z_.]+$/.test(text);

/** What a zod issue says, as a key of api.json's `validation` with its values (a French caller reads French). */
function issueMessage(issue: z.core.$ZodIssue): { key: string; values?: Record<string, string | number> } {
  const known = MESSAGE_KEYS.get(issue.message) ?? (isKey(issue.message) ? issue.message : undefined);
  if (known) return { key: known };
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? { key: "validation.required" }
        : { key: "validation.type", values: { expected: issue.expected } };
    case "too_small":
    case "too_big": {
      const bound = issue.code === "too_small" ? "min" : "max";
      const limit = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
      const kind = issue.origin === "string" ? "text" : issue.origin === "array" ? "list" : "number";
      return { key: `validation.${kind}_${bound}${issue.inclusive === false ? "_exclusive" : ""}`, values: { limit } };
    }
    case "invalid_format":
      return issue.format === "email" || issue.format === "datetime" || issue.format === "url"
        ? { key: `validation.format_${issue.format}` }
        : { key: "validation.format" };
    case "invalid_value":
      return { key: "validation.one_of", values: { values: issue.values.map(String).join(", ") } };
    case "not_multiple_of":
      return { key: "validation.multiple_of", values: { divisor: Number(issue.divisor) } };
    default:
      return { key: "validation.invalid" };
  }
}

/** Turns a ZodError into our 400: one message per issue, as keys, and a snake_case field map. */
export function zodToDomainError(error: z.ZodError): DomainError {
  const fieldErrors: Record<string, Message> = {};
  const messages = error.issues.map((issue): Message => {
    const field = issue.path.map((p) => (typeof p === "string" ? toSnake(p) : String(p))).join(".");
    if (issue.code === "unrecognized_keys")
      return {
        key: issue.keys.length > 1 ? "validation.unknown_fields" : "validation.unknown_field",
        values: { fields: issue.keys.map(toSnake).join(", ") },
      };
    const message = issueMessage(issue);
    if (field && !(field in fieldErrors)) fieldErrors[field] = message.values ? message : message.key;
    // A message of our own (`errors.iban_invalid`) says what is wrong by itself; zod's are about a field.
    if (!field || !message.key.startsWith("validation.")) return message.values ? message : message.key;
    return { key: "validation.in_field", values: { field, ...message.values, message: message.key } };
  });
  return new DomainError("invalid", messages, Object.keys(fieldErrors).length ? fieldErrors : undefined);
}

export function parseWith<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  // The input is reported so that a missing field reads "Required" rather than "expected a string".
  const result = schema.safeParse(input, { reportInput: true });
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

/** A PDF to download as `fileName`: a whole buffer, or a stream written while it is sent. */
export function answerPdf(c: Context, pdf: Buffer | Readable, fileName: string) {
  const body = pdf instanceof Readable ? (Readable.toWeb(pdf) as ReadableStream<Uint8Array>) : new Uint8Array(pdf);
  return c.body(body, 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="${fileName}"`,
  });
}

/** An id from a path parameter; anything else is a 404, as for an unknown id. */
export function idParam(c: Context, name = "id"): number {
  const id = parseId(c.req.param(name));
  if (id === null) throw new DomainError("not_found", ["errors.not_found"]);
  return id;
}

export { parseId, zBooleanFlag, zId, zIsoDate } from "@ticketing/shared/schemas/common";
