// ra-data-simple-rest list convention (docs/design.md §3): ?sort=["id","ASC"]&range=[0,24]&filter={...}, plus plain
// keys.
import { asc, count, type Db, desc, inArray, isNull } from "@ticketing/db";
import { camelizeKeys, toCamel, toSnake } from "@ticketing/shared/case";
import { parseId } from "@ticketing/shared/schemas/common";
import type { SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import { z } from "zod";
import { DomainError } from "./errors.ts";
import { answer } from "./http.ts";

export interface ListOptions {
  /** fields (camelCase) the list can be ordered by; sorting by any other is a 400 */
  sortable: readonly string[];
  /** the order when none is asked for; "id" unless told */
  defaultSort?: string;
  /** filters holding ids: each value is checked (400 otherwise); read them with idFilter */
  idFilters?: readonly string[];
}

export interface ListQuery {
  /** `field` is one of the list's `sortable` fields */
  sort: { field: string; order: "asc" | "desc" };
  offset: number;
  limit: number;
  /**
   * camelCase keys; values as sent (a value may be an array for "many"), id filters as lists of ids or null. Its
   * prototype is null: reading a key nobody sent (`constructor`, `toString`) gives undefined, never a built-in.
   */
  filter: Record<string, unknown>;
}

const SortSchema = z.tuple([z.string().min(1).max(100), z.enum(["ASC", "DESC", "asc", "desc"])]);
const RangeSchema = z
  .tuple([z.number().int().min(0), z.number().int().min(0)])
  .refine(([a, b]) => b >= a, "range end before start");
const MAX_PAGE = 1000;

function parseJson(name: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new DomainError("invalid", ["errors.list_parameter_json"], undefined, { name });
  }
}

/** An id filter's value as a list (one id is a list of one), or null (`"null"` in a plain query) for "none". */
function readIdFilter(key: string, value: unknown): number[] | null {
  if (value === null || value === "null") return null;
  const ids = (Array.isArray(value) ? value : [value]).map(parseId);
  if (ids.some((id) => id === null))
    throw new DomainError("invalid", ["errors.filter_id_invalid"], undefined, { name: toSnake(key) });
  return ids as number[];
}

export function parseListQuery(c: Context, options: ListOptions): ListQuery {
  const query = c.req.queries();
  const one = (key: string) => query[key]?.[0];
  let sort: ListQuery["sort"] = { field: options.defaultSort ?? "id", order: "asc" };
  const rawSort = one("sort");
  if (rawSort) {
    const parsed = SortSchema.safeParse(parseJson("sort", rawSort));
    if (!parsed.success) throw new DomainError("invalid", ["errors.sort_invalid"]);
    const field = toCamel(parsed.data[0]);
    // An allow-list of names, never a lookup on an object: `constructor` must not find Object's.
    if (!options.sortable.includes(field))
      throw new DomainError("invalid", ["errors.sort_field_unknown"], undefined, {
        field: parsed.data[0],
        fields: options.sortable.map(toSnake).join(", "),
      });
    sort = { field, order: parsed.data[1].toLowerCase() as "asc" | "desc" };
  }
  let offset = 0;
  let limit = MAX_PAGE;
  const rawRange = one("range");
  if (rawRange) {
    const parsed = RangeSchema.safeParse(parseJson("range", rawRange));
    if (!parsed.success) throw new DomainError("invalid", ["errors.range_invalid"]);
    offset = parsed.data[0];
    limit = Math.min(parsed.data[1] - parsed.data[0] + 1, MAX_PAGE);
  }
  const filter: Record<string, unknown> = Object.create(null);
  const rawFilter = one("filter");
  if (rawFilter) {
    const parsed = parseJson("filter", rawFilter);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new DomainError("invalid", ["errors.filter_invalid"]);
    Object.assign(filter, camelizeKeys(parsed));
  }
  for (const [key, values] of Object.entries(query)) {
    if (key === "sort" || key === "range" || key === "filter") continue;
    filter[toCamel(key)] = values.length > 1 ? values : values[0];
  }
  for (const key of options.idFilters ?? [])
    if (Object.hasOwn(filter, key)) filter[key] = readIdFilter(key, filter[key]);
  return { sort, offset, limit, filter };
}

/** The condition of one of `idFilters`: the column is one of the ids, or IS NULL for null; none when not asked. */
export function idFilter(query: ListQuery, key: string, column: SQLiteColumn): SQL | undefined {
  const ids = query.filter[key] as number[] | null | undefined;
  return ids === undefined ? undefined : ids === null ? isNull(column) : inArray(column, ids);
}

/** The order of a list: `columns` maps each of its `sortable` fields to the column sorted by. */
export function listOrder(query: ListQuery, columns: Record<string, SQLiteColumn>): SQL {
  const column = columns[query.sort.field] as SQLiteColumn;
  return query.sort.order === "desc" ? desc(column) : asc(column);
}

/** How many rows of `table` match `where`: a list's total. */
export async function countRows(db: Db, table: SQLiteTable, where: SQL | undefined): Promise<number> {
  return (await db.select({ n: count() }).from(table).where(where).get())?.n ?? 0;
}

/**
 * One page of a list: the rows of `table` matching `where`, in the order the query asks (`columns` maps its
 * sortable fields to columns), and how many match in all.
 */
export async function listPage<T extends SQLiteTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  query: ListQuery,
  columns: Record<string, SQLiteColumn>,
): Promise<{ rows: T["$inferSelect"][]; total: number }> {
  const rows = await db
    .select()
    .from(table as SQLiteTable)
    .where(where)
    .orderBy(listOrder(query, columns))
    .limit(query.limit)
    .offset(query.offset)
    .all();
  return { rows: rows as T["$inferSelect"][], total: await countRows(db, table, where) };
}

// Sets `Content-Range: things 0-24/319`; an empty page is `things */319`.
export function setContentRange(c: Context, resource: string, offset: number, count: number, total: number) {
  c.header(
    "Content-Range",
    count === 0 ? `${resource} */${total}` : `${resource} ${offset}-${offset + count - 1}/${total}`,
  );
}

/** Answers a page of a list: its rows, and the Content-Range of the page within `total`. */
export function answerList(c: Context, resource: string, query: ListQuery, page: { rows: unknown[]; total: number }) {
  setContentRange(c, resource, query.offset, page.rows.length, page.total);
  return answer(c, page.rows);
}
