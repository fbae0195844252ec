// Cancelling an event (issue 35, docs/decisions/0047-cancelling-an-event.md): a durable job. The cancellation and the
// list of paid orders it refunds are written in one transaction with the event's closing; then a worker goes through
// the list basket by basket, each basket's progress written in the transaction that records its refund, so that a
// process killed half-way carries on where it stood, and never refunds anyone twice.
import { CANCELLATION_BASKET_STATES, CANCELLATION_REFUND_WAYS, PAYMENT_MODULES } from "@ticketing/shared/constants";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { baskets } from "./baskets.ts";
import { createdAt, id } from "./columns.ts";
import { events } from "./events.ts";
import { invoices } from "./payments.ts";
import { users } from "./users-units.ts";

/** An event's cancellation: final, one per event; the organiser's message to its buyers in both languages. */
export const eventCancellations = sqliteTable("event_cancellations", {
  eventId: integer("event_id")
    .primaryKey()
    .references(() => events.id, { onDelete: "cascade" }),
  message: text("message").notNull(),
  messageFr: text("message_fr").notNull(),
  cancelledById: integer("cancelled_by_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

/**
 * A paid order the cancellation refunds, and where its refund stands: `pending` (to do), `refunding` (its credit
 * note written, the provider asked: after a crash it is asked again with the same credit note, the same idempotency
 * key), `refunded`, `failed` (the provider could not pay back: the organiser retries), `by_hand` (paid at a point of
 * sale: the organiser pays it back and marks it), `refunded_by_hand`.
 */
export const eventCancellationBaskets = sqliteTable(
  "event_cancellation_baskets",
  {
    id: id(),
    eventId: integer("event_id")
      .notNull()
      .references(() => eventCancellations.eventId, { onDelete: "cascade" }),
    basketId: integer("basket_id")
      .notNull()
      .references(() => baskets.id, { onDelete: "cascade" }),
    /** `provider`: paid back through the module that took the money; `by_hand`: by the organiser (point of sale). */
    way: text("way", { enum: CANCELLATION_REFUND_WAYS }).notNull(),
    /** The module that took the money (null: a free order). */
    module: text("module", { enum: PAYMENT_MODULES }),
    state: text("state", { enum: CANCELLATION_BASKET_STATES }).notNull().default("pending"),
    /** cents: what was left to refund when the cancellation listed it */
    amount: integer("amount").notNull(),
    /** The credit note of this refund, once claimed: its id is the provider's idempotency key. */
    creditNoteId: integer("credit_note_id").references(() => invoices.id),
    /** The provider's last refusal, for the organiser. */
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    /** Whether the buyer's cancellation mail was queued (with the refund, or when listed as to refund by hand). */
    isMailed: integer("is_mailed", { mode: "boolean" }).notNull().default(false),
    updatedAt: text("updated_at"),
  },
  (t) => [
    uniqueIndex("event_cancellation_baskets_basket").on(t.basketId),
    index("event_cancellation_baskets_state").on(t.state, t.eventId),
  ],
);
