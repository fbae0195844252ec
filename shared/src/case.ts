// The wire is snake_case, the code camelCase (docs/design.md §3, ADR 0003). This is the one converter: the API uses
// it at its edge, the ticket office and the back office at theirs.
//
// A digit segment keeps its underscore on the camel side (`extra_info_12` ↔ `extraInfo_12`), so that every
// snake_case key survives a round trip: `extraInfo12` could not say whether it was `extra_info12`.

import { LRUCache } from "lru-cache";

export const toCamel = (key: string) => key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
export const toSnake = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * A converter that remembers what it converted: every answer and every page renames the same few hundred keys.
 * Keys also come from request bodies (anyone's), so the memory is bounded (least recently used out first).
 */
function remembered(convert: (key: string) => string): (key: string) => string {
  const known = new LRUCache<string, string>({ max: 5_000 });
  return (key) => {
    let converted = known.get(key);
    if (converted === undefined) {
      converted = convert(key);
      known.set(key, converted);
    }
    return converted;
  };
}
const toCamelKey = remembered(toCamel);
const toSnakeKey = remembered(toSnake);

/** `billing_information.first_name` → `billingInformation.firstName` (a field error's path). */
export const camelPath = (path: string) => path.split(".").map(toCamel).join(".");

/**
 * How deep converted JSON may nest. JSON.parse copes with any depth but every recursive reader after it (this
 * conversion first) would overflow the stack: deeper input is refused instead. The deepest legitimate body (form
 * answers, a filter) nests 3 levels.
 */
export const MAX_NESTING = 64;

export class NestingTooDeep extends Error {
  constructor() {
    super(`JSON nested deeper than ${MAX_NESTING} levels`);
    this.name = "NestingTooDeep";
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function convertKeys(value: unknown, convert: (key: string) => string, depth: number): unknown {
  const isArray = Array.isArray(value);
  if (!isArray && !isPlainObject(value)) return value;
  if (depth >= MAX_NESTING) throw new NestingTooDeep();
  if (isArray) return value.map((item) => convertKeys(item, convert, depth + 1));
  const converted: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    // An undefined value is left out, as JSON would.
    if (item === undefined) continue;
    const name = convert(key);
    const next = convertKeys(item, convert, depth + 1);
    // A `__proto__` key stays a key (refused by strict schemas) instead of replacing the object's prototype, as
    // an assignment would.
    if (name === "__proto__")
      Object.defineProperty(converted, name, { value: next, enumerable: true, writable: true, configurable: true });
    else converted[name] = next;
  }
  return converted;
}

/** Deeply renames `snake_case` keys to `camelCase`; values (strings, dates, numbers) are left alone. */
export const camelizeKeys = <T = unknown>(value: unknown) => convertKeys(value, toCamelKey, 0) as T;
/** Deeply renames `camelCase` keys to `snake_case` and leaves out `undefined` values. */
export const snakifyKeys = <T = unknown>(value: unknown) => convertKeys(value, toSnakeKey, 0) as T;

export type QueryValues = Record<string, string | number | boolean | readonly (string | number)[] | null | undefined>;

/** `{eventId: 1, testing: false}` → `event_id=1&testing=false`; arrays become repeated keys, undefined is left out. */
export function toSnakeQuery(query: QueryValues): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(toSnake(key), String(item));
  }
  return params;
}
