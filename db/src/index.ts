export type { SQL } from "drizzle-orm";
export {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  like,
  lt,
  lte,
  max,
  ne,
  or,
  sql,
  sum,
} from "drizzle-orm";
export * from "./client.ts";
export * from "./prepared.ts";
export * as schema from "./schema/index.ts";
