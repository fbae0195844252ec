import { sql } from "drizzle-orm";
import { integer, text } from "drizzle-orm/sqlite-core";

/** Primary key: integers on the wire (docs/design.md §3). */
export const id = () => integer("id").primaryKey({ autoIncrement: true });
/** Timestamps are ISO 8601 UTC strings, sortable as text. */
export const createdAt = () => text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);
export const bool = (name: string) => integer(name, { mode: "boolean" });
/**
 * The French of a text an organiser writes for buyers, beside the column that holds its English (docs/decisions/0043):
 * empty when not written, and the buyer then reads the English (`inLanguage`, shared/src/content-language.ts).
 */
export const french = (name: string) => text(name).notNull().default("");
