// The wire is snake_case, the code camelCase (DESIGN.md 3): converted here and only here.
export const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function convertKeys(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[convert(key)] = convertKeys(item, convert);
  return out;
}

export const camelizeKeys = <T = unknown>(value: unknown) => convertKeys(value, toCamel) as T;
export const snakifyKeys = <T = unknown>(value: unknown) => convertKeys(value, toSnake) as T;
