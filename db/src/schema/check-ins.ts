// Tickets checked in at the door (issue 17, docs/decisions/0027-ticket-check-in.md), and tickets scanned on two
// devices (issue 35, docs/decisions/0048-offline-check-in.md).
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
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
  /** When it was scanned: the device's time of an offline scan sent later (docs/decisions/0048). */
  checkedInAt: text("checked_in_at").notNull(),
  /** The scanning device's id (made once per browser); null for a scan that named none. */
  deviceId: text("device_id"),
});

/**
 * A ticket already checked in, scanned again on another device (offline, or live): one row per other device, so a
 * retried sync reports nothing new. The first scan is the check-in's row.
 */
export const checkInDoubles = sqliteTable(
  "check_in_doubles",
  {
    id: id(),
    checkInId: integer("check_in_id")
      .notNull()
      .references(() => checkIns.id, { onDelete: "cascade" }),
    deviceId: text("device_id").notNull(),
    /** The staff member who scanned it the second time; null once that account is deleted. */
    scannedById: integer("scanned_by_id").references(() => users.id, { onDelete: "set null" }),
    scannedAt: text("scanned_at").notNull(),
    /** When the server learnt of it (the sync's time for an offline scan). */
    reportedAt: text("reported_at").notNull(),
  },
  (t) => [uniqueIndex("check_in_doubles_check_in_device").on(t.checkInId, t.deviceId)],
);
