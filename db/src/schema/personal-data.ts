// A buyer's personal data (issue 35, docs/decisions/0046-personal-data-export-and-erasure.md): the record of each
// erasure, kept so that support can show it was done, without keeping what was erased.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id } from "./columns.ts";
import { users } from "./users-units.ts";

/**
 * One row per erasure asked by support. The buyer's email is not kept: only a hash of it with a salt of the row's
 * own (`email_salt`), so that support can check "was this address erased?" by hashing it again, and nobody can read
 * the address back from the row.
 */
export const personalDataErasures = sqliteTable("personal_data_erasures", {
  id: id(),
  /** The staff member who erased; null once that account is deleted. */
  erasedById: integer("erased_by_id").references(() => users.id, { onDelete: "set null" }),
  /** SHA-256 of `email_salt` and the trimmed, lower-cased email, hex. */
  emailHash: text("email_hash").notNull(),
  emailSalt: text("email_salt").notNull(),
  /** JSON array of the unit ids whose events it covered; null: every unit (a superuser's erasure). */
  unitIds: text("unit_ids", { mode: "json" }).$type<number[] | null>(),
  /** JSON array of the ids of the events whose rows it changed. */
  eventIds: text("event_ids", { mode: "json" }).$type<number[]>().notNull(),
  /** JSON object: how many rows of each kind it erased (shared/src/schemas/personal-data.ts). */
  counts: text("counts", { mode: "json" }).$type<Record<string, number>>().notNull(),
  createdAt: createdAt(),
});
