import { PAYMENT_MODULES } from "@ticketing/shared/constants";
import { type AnySQLiteColumn, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { baskets } from "./baskets.ts";
import { bool, createdAt, id } from "./columns.ts";
import { frontendLogins } from "./events.ts";

export const invoices = sqliteTable(
  "invoices",
  {
    id: id(),
    basketId: integer("basket_id")
      .notNull()
      .references(() => baskets.id, { onDelete: "cascade" }),
    amount: integer("amount").notNull(), // cents; negative for a refund
    dueDate: text("due_date"),
    isResolved: bool("is_resolved").notNull().default(false),
    resolvedAt: text("resolved_at"),
    isCancelled: bool("is_cancelled").notNull().default(false),
    /** A refund points at the invoice it refunds. */
    relatedInvoiceId: integer("related_invoice_id").references((): AnySQLiteColumn => invoices.id),
    createdAt: createdAt(),
  },
  (t) => [index("invoices_basket").on(t.basketId)],
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
    createdAt: createdAt(),
  },
  (t) => [index("payment_intents_invoice").on(t.invoiceId)],
);
