// The wire is snake_case (DESIGN.md 3); the storefront speaks camelCase. Only api.server.ts uses these.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const snakeToCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const camelToSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function convertKeys(value: unknown, convert: (key: string) => string): Json {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [convert(k), convertKeys(v, convert)]),
    );
  }
  return value as Json;
}

/** Deeply renames `snake_case` keys to `camelCase`; values are untouched. */
export const toCamel = (value: unknown): unknown => convertKeys(value, snakeToCamel);

/** Deeply renames `camelCase` keys to `snake_case` and drops `undefined` values. */
export const toSnake = (value: unknown): unknown => convertKeys(value, camelToSnake);

/** `{eventId: 1, testing: false}` → `event_id=1&testing=false`; arrays become repeated keys. */
export function toSnakeQuery(
  query: Record<string, string | number | boolean | readonly (string | number)[] | undefined>,
) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(camelToSnake(key), String(item));
  }
  return params;
}
