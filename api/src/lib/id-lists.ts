// Reads of "these baskets" or "these logins" as queries prepared once (prepared.ts): the ids go in one placeholder
// as a JSON array, and SQLite reads it back with json_each, so the SQL text is the same whatever their number.
import { sql } from "@ticketing/db";
import type { SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** The value of an `inList` placeholder. */
export const jsonList = (values: readonly (number | string)[]) => JSON.stringify(values);

/** The column is one of the values given (as `jsonList`) in the placeholder named. */
export const inList = (column: SQLiteColumn, placeholder: string): SQL =>
  sql`${column} in (select value from json_each(${sql.placeholder(placeholder)}))`;
