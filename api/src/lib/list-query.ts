// ra-data-simple-rest list convention (DESIGN.md 3): ?sort=["id","ASC"]&range=[0,24]&filter={...}, plus plain keys.
import type { Context } from "hono";
import { z } from "zod";
import { camelizeKeys, toCamel } from "./case.ts";
import { DomainError } from "./errors.ts";

export interface ListQuery {
  sort: { field: string; order: "asc" | "desc" };
  offset: number;
  limit: number;
  /** camelCase keys; values as sent (a value may be an array for "many") */
  filter: Record<string, unknown>;
}

const SortSchema = z.tuple([z.string().min(1), z.enum(["ASC", "DESC", "asc", "desc"])]);
const RangeSchema = z
  .tuple([z.number().int().min(0), z.number().int().min(0)])
  .refine(([a, b]) => b >= a, "range end before start");
const MAX_PAGE = 1000;

function parseJson(name: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new DomainError("invalid", [`${name} is not valid JSON`]);
  }
}

export function parseListQuery(c: Context, defaultSort = "id"): ListQuery {
  const query = c.req.queries();
  const one = (key: string) => query[key]?.[0];
  let sort: ListQuery["sort"] = { field: defaultSort, order: "asc" };
  const rawSort = one("sort");
  if (rawSort) {
    const parsed = SortSchema.safeParse(parseJson("sort", rawSort));
    if (!parsed.success) throw new DomainError("invalid", ['sort must look like ["id","ASC"]']);
    sort = { field: toCamel(parsed.data[0]), order: parsed.data[1].toLowerCase() as "asc" | "desc" };
  }
  let offset = 0;
  let limit = MAX_PAGE;
  const rawRange = one("range");
  if (rawRange) {
    const parsed = RangeSchema.safeParse(parseJson("range", rawRange));
    if (!parsed.success) throw new DomainError("invalid", ["range must look like [0,24]"]);
    offset = parsed.data[0];
    limit = Math.min(parsed.data[1] - parsed.data[0] + 1, MAX_PAGE);
  }
  const filter: Record<string, unknown> = {};
  const rawFilter = one("filter");
  if (rawFilter) {
    const parsed = parseJson("filter", rawFilter);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new DomainError("invalid", ["filter must be a JSON object"]);
    Object.assign(filter, camelizeKeys(parsed));
  }
  for (const [key, values] of Object.entries(query)) {
    if (key === "sort" || key === "range" || key === "filter") continue;
    filter[toCamel(key)] = values.length > 1 ? values : values[0];
  }
  return { sort, offset, limit, filter };
}

// Sets `Content-Range: things 0-24/319`; an empty page is `things */319`.
export function setContentRange(c: Context, resource: string, offset: number, count: number, total: number) {
  c.header(
    "Content-Range",
    count === 0 ? `${resource} */${total}` : `${resource} ${offset}-${offset + count - 1}/${total}`,
  );
}
