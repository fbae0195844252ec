import { PAYMENT_MODULES } from "@ticketing/shared/constants";
import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { baskets, selectedNodes } from "./baskets.ts";
import { bool, createdAt, id } from "./columns.ts";
import { frontendLogins } from "./events.ts";

export const invoices = sqliteTable(
  "invoices",
  {
    id: id(),
    basketId: integer("basket_id")
      .notNull()
      .references(() => baskets.id, { onDelete: "cascade" }),
    /** The unit that issues it (its event's): numbers run per unit. */
    unitId: integer("unit_id").notNull().default(0),
    /** 1, 2, 3… per unit without gaps, given in the transaction that writes the invoice. */
    number: integer("number").notNull().default(0),
    /** A testing (preview) basket's: numbered apart, so the unit's real sequence has no test invoices in it. */
    isTesting: bool("is_testing").notNull().default(false),
    amount: integer("amount").notNull(), // cents; negative for a refund
    dueDate: text("due_date"),
    isResolved: bool("is_resolved").notNull().default(false),
    resolvedAt: text("resolved_at"),
    isCancelled: bool("is_cancelled").notNull().default(false),
    /** A refund points at the invoice it refunds. */
    relatedInvoiceId: integer("related_invoice_id").references((): AnySQLiteColumn => invoices.id),
    /** A refund's reason, as staff gave it. */
    reason: text("reason"),
    /** The provider's id of a refund's repayment (Stripe `re_…`); null for cash and demo refunds. */
    pspRefundId: text("psp_refund_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("invoices_basket").on(t.basketId),
    uniqueIndex("invoices_unit_number").on(t.unitId, t.isTesting, t.number),
  ],
);

/**
 * What an invoice bills: one line per selected article or option, at its price then (negative on a refund). A
 * selected node is refunded at most once: a failed refund deletes its lines.
 */
export const invoiceLines = sqliteTable(
  "invoice_lines",
  {
    id: id(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    selectedNodeId: integer("selected_node_id")
      .notNull()
      .references(() => selectedNodes.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    amount: integer("amount").notNull(), // cents
    isRefund: bool("is_refund").notNull().default(false),
  },
  (t) => [
    index("invoice_lines_invoice").on(t.invoiceId),
    index("invoice_lines_selected_node").on(t.selectedNodeId),
    uniqueIndex("invoice_lines_refunded_once").on(t.selectedNodeId).where(sql`${t.isRefund} = 1`),
  ],
);

export const paymentIntents = sqliteTable(
  "payment_intents",
  {
    id: id(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    createdById: integer("created_by_id").references(() => frontendLogins.id, { onDelete: "set null" }),
    moduleKey: text("module_key", { enum: PAYMENT_MODULES }).notNull(),
    pspId: text("psp_id").notNull().unique(),
    isError: bool("is_error").notNull().default(false),
    isCancelled: bool("is_cancelled").notNull().default(false),
    errorMessage: text("error_message"),
    /** The provider's page where the buyer pays (null for a point of sale). */
    hostedUrl: text("hosted_url"),
    /** The provider's id of the money taken (Stripe's PaymentIntent `pi_…`), known once paid; refunds use it. */
    pspPaymentId: text("psp_payment_id"),
    createdAt: createdAt(),
  },
  (t) => [index("payment_intents_invoice").on(t.invoiceId)],
);

/** The provider's notifications already applied: its event id is written in the transaction of its effect. */
export const providerEvents = sqliteTable(
  "provider_events",
  {
    id: id(),
    moduleKey: text("module_key", { enum: PAYMENT_MODULES }).notNull(),
    providerEventId: text("provider_event_id").notNull(),
    type: text("type").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("provider_events_once").on(t.moduleKey, t.providerEventId)],
);
