// The wire is snake_case, the code camelCase (DESIGN.md 3): converted here and only here.
import { DomainError } from "./errors.ts";

export const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * How deep a request's JSON may nest. JSON.parse copes with any depth but every recursive reader after it
 * (this conversion first) would overflow the stack, a 500: deeper input is refused with a 400 instead. The
 * deepest legitimate body (form answers, a filter) nests 3 levels.
 */
export const MAX_NESTING = 64;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function convertKeys(value: unknown, convert: (key: string) => string, depth: number): unknown {
  const isArray = Array.isArray(value);
  if (!isArray && !isPlainObject(value)) return value;
  if (depth >= MAX_NESTING)
    throw new DomainError("invalid", ["errors.nested_too_deep"], undefined, { max: MAX_NESTING });
  if (isArray) return value.map((item) => convertKeys(item, convert, depth + 1));
  // fromEntries defines own properties: a `__proto__` key stays a key (refused by strict schemas) instead of
  // replacing the object's prototype, as an assignment would.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [convert(key), convertKeys(item, convert, depth + 1)]),
  );
}

export const camelizeKeys = <T = unknown>(value: unknown) => convertKeys(value, toCamel, 0) as T;
export const snakifyKeys = <T = unknown>(value: unknown) => convertKeys(value, toSnake, 0) as T;
