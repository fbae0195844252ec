// Tickets checked in at the door (issue 17, docs/decisions/0027-ticket-check-in.md).
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { selectedNodes } from "./baskets.ts";
import { id } from "./columns.ts";
import { users } from "./users-units.ts";

/**
 * One row per ticket (an article line) let in: the unique line is what admits a ticket once, however many devices
 * scan it at the same instant (the insert that loses the race inserts nothing).
 */
export const checkIns = sqliteTable("check_ins", {
  id: id(),
  selectedNodeId: integer("selected_node_id")
    .notNull()
    .unique()
    .references(() => selectedNodes.id, { onDelete: "cascade" }),
  /** The staff member who scanned it; null once that account is deleted. */
  checkedInById: integer("checked_in_by_id").references(() => users.id, { onDelete: "set null" }),
  checkedInAt: text("checked_in_at").notNull(),
});
