// Pieces every resource's contract uses (docs/decisions/0009). Schemas are camelCase, as the code reads them;
// the wire is their snake_case form (case.ts), which the OpenAPI document shows.
import { z } from "zod";

/**
 * An id is a positive safe integer: a JSON number, or written in decimal digits (a path, a query, a form).
 * Anything else gives null: `true`, `[1]`, `"0x1"`, `"1e3"`, `" 1"`, `"01"`, `1.5`, `0`, `-1`, 2^53.
 */
export function parseId(value: unknown): number | null {
  const id =
    typeof value === "number" ? value : typeof value === "string" && /^[1-9]\d*$/.test(value) ? Number(value) : 0;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const ID_JSON_SCHEMA = {
  anyOf: [
    { type: "integer", minimum: 1 },
    { type: "string", pattern: "^[1-9][0-9]*$" },
  ],
};

/** An id in a body or a query (see parseId); anything else is a 400 naming the field. */
export const zId = z
  .custom<number | string>((value) => parseId(value) !== null, { error: "errors.id_invalid" })
  .meta(ID_JSON_SCHEMA)
  .transform((value) => parseId(value) as number);

/** An id in an answer. */
export const Id = z.number().int().positive();

/** A moment with its offset (ISO 8601), stored and answered in UTC. */
export const zIsoDate = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());
/** A moment in an answer: ISO 8601, UTC. */
export const IsoDate = z.string();

/** A flag from JSON (`true`) or from a form or a query (`"true"`, `"1"`). */
export const zBooleanFlag = z.union([
  z.boolean(),
  z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1"),
]);

/** A body with nothing in it: a POST that acts on its path alone. */
export const Empty = z.strictObject({});

/** An answer that only says a request was taken. */
export const Ok = z.object({ ok: z.literal(true) });

/** Money: whole cents (CHF). */
export const Cents = z.number().int();

/** Every error answer (docs/design.md §3): messages in the caller's language, and the fields they are about. */
export const ErrorAnswer = z.object({
  errors: z.array(z.string()),
  fieldErrors: z.record(z.string(), z.string()).optional(),
});

/** `GET /config`: what any page may know of the product's settings. */
export const SiteConfig = z.object({ supportEmail: z.string() });
