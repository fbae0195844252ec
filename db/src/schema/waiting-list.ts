// An event's waiting list (issue 31, docs/decisions/0038): buyers in line for a sold-out article, and the stock
// set aside for them. While an entry waits, its quantity counts in `node_limits.waiting` of every stock its article
// counts in, and every public take of stock requires `used + n + waiting <= maximum`: stock freed for any reason is
// the list's before any buyer on the buy page can take it. The write that frees it then offers it to the entries in
// order (`api/src/services/waiting-list/offers.ts`): an offered entry's quantity moves from `waiting` to `used`,
// held for it until its offer lapses or its buyer opens it, when its offer's basket takes it over.
import { LANGUAGES, WAITING_LIST_ENTRY_STATES } from "@ticketing/shared/constants";
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { baskets } from "./baskets.ts";
import { nodeLimits, nodes } from "./catalogue.ts";
import { bool, createdAt, id } from "./columns.ts";
import { events, frontendLogins } from "./events.ts";

/** The organiser's settings; an event without a row has no waiting list. */
export const waitingLists = sqliteTable("waiting_lists", {
  eventId: integer("event_id")
    .primaryKey()
    .references(() => events.id, { onDelete: "cascade" }),
  /** Whether buyers may join now (entries already in line are served either way). */
  accepting: bool("accepting").notNull().default(true),
  /** Offers made by the write that frees stock (true), or only by the organiser's hand (false). */
  automatic: bool("automatic").notNull().default(true),
  /** How long an offer holds its stock for its buyer. */
  offerMinutes: integer("offer_minutes").notNull(),
  /** Whether an entry whose quantity cannot be met is offered what is left, rather than waiting. */
  partialOffers: bool("partial_offers").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: text("updated_at"),
});

/** A buyer in line for `quantity` of an article; its order is its id. */
export const waitingListEntries = sqliteTable(
  "waiting_list_entries",
  {
    id: id(),
    eventId: integer("event_id")
      .notNull()
      .references(() => waitingLists.eventId, { onDelete: "cascade" }),
    /** The buyer: a login whose email is proved (a trusted email's link, or a third party's signature). */
    loginId: integer("login_id")
      .notNull()
      .references(() => frontendLogins.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    language: text("language", { enum: LANGUAGES }).notNull().default("en"),
    /** Preview mode's own list: it counts in the testing counters. */
    testing: bool("testing").notNull().default(false),
    nodeId: integer("node_id").references(() => nodes.id, { onDelete: "set null" }),
    /** The article's title when the buyer joined. */
    title: text("title").notNull(),
    quantity: integer("quantity").notNull(),
    state: text("state", { enum: WAITING_LIST_ENTRY_STATES }).notNull().default("waiting"),
    /** How many were offered (the quantity, or less when partial offers are allowed). */
    offeredQuantity: integer("offered_quantity"),
    offeredAt: text("offered_at"),
    offerExpiresAt: text("offer_expires_at"),
    /** The basket its buyer opened the offer into: from then on the basket's lines hold the offer's stock. */
    basketId: integer("basket_id").references(() => baskets.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: text("updated_at"),
  },
  (t) => [
    index("waiting_list_entries_state").on(t.state, t.eventId),
    index("waiting_list_entries_event").on(t.eventId, t.testing, t.id),
    index("waiting_list_entries_basket").on(t.basketId),
    uniqueIndex("waiting_list_entries_live")
      .on(t.eventId, t.testing, t.loginId, t.nodeId)
      .where(sql`${t.state} IN ('waiting', 'offering', 'offered')`),
  ],
);

/** The stocks an entry's article counts in, fixed when it joined: what its waiting and its offer move. */
export const waitingListEntryLimits = sqliteTable(
  "waiting_list_entry_limits",
  {
    entryId: integer("entry_id")
      .notNull()
      .references(() => waitingListEntries.id, { onDelete: "cascade" }),
    limitId: integer("limit_id")
      .notNull()
      .references(() => nodeLimits.id, { onDelete: "cascade" }),
  },
  // In line order per stock: the offers walk a stock's line from its head (waiting-list/offers.ts).
  (t) => [
    primaryKey({ columns: [t.entryId, t.limitId] }),
    index("waiting_list_entry_limits_limit").on(t.limitId, t.entryId),
  ],
);
