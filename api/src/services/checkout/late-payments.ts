// A payment that arrives after its invoice was cancelled (docs/decisions/0010-late-payments.md): accepted when the
// articles it paid for can all be held again, otherwise paid back. These run inside resolvePayment's transaction;
// the money goes back outside it (payments/late-refunds.ts).

import { and, type Db, eq, inArray, run, schema } from "@ticketing/db";
import { GIVEN_BACK_STATUSES, isGivenBack, type PaymentModule as PaymentModuleKey } from "@ticketing/shared/constants";
import { apiTranslator } from "../../lib/i18n.ts";
import { movesPerLimit, takeStock } from "../baskets/holds.ts";
import type { Basket } from "../baskets/rows.ts";
import { findCancellation } from "../events/cancellation-views.ts";
import { type Invoice, writeInvoice } from "../invoices/invoice-writing.ts";

/**
 * The modules whose money can arrive late: a real provider's page may be paid after our payment term ran out. The
 * demo page refuses to pay a closed payment, so the demo module's late verdict changes nothing.
 */
export const LATE_PAYMENT_MODULES: readonly PaymentModuleKey[] = ["stripe"];

/**
 * Holds the invoice's articles again, when the buyer has not started again (the basket is `new` and holds
 * nothing), none of them is held elsewhere and every stock they count in has room for them; true when it did.
 * The stock is taken as when the articles were added (takeStock in baskets.ts).
 */
export function* holdAgain(tx: Db, basket: Basket, invoice: Invoice): Generator<unknown, boolean, unknown> {
  if (basket.status !== "new") return false;
  // A cancelled event sells nothing, late or not: the payment is paid back (docs/decisions/0047).
  if (yield* run(findCancellation(tx, basket.eventId))) return false;
  const holding = yield* run(
    tx
      .select({ id: schema.selectedNodes.id })
      .from(schema.selectedNodes)
      .where(and(eq(schema.selectedNodes.basketId, basket.id), eq(schema.selectedNodes.status, "held")))
      .get(),
  );
  if (holding) return false;
  const lines = yield* run(
    tx
      .select({ selectedNodeId: schema.invoiceLines.selectedNodeId })
      .from(schema.invoiceLines)
      .where(and(eq(schema.invoiceLines.invoiceId, invoice.id), eq(schema.invoiceLines.isRefund, false)))
      .all(),
  );
  const ids = [...new Set(lines.map((line) => line.selectedNodeId))];
  if (ids.length === 0) return false;
  const nodes = yield* run(
    tx
      .select({ id: schema.selectedNodes.id, status: schema.selectedNodes.status })
      .from(schema.selectedNodes)
      .where(and(inArray(schema.selectedNodes.id, ids), eq(schema.selectedNodes.basketId, basket.id)))
      .all(),
  );
  if (nodes.length !== ids.length || nodes.some((node) => !isGivenBack(node.status))) return false;
  const links = yield* run(
    tx.select().from(schema.selectedNodeLimits).where(inArray(schema.selectedNodeLimits.selectedNodeId, ids)).all(),
  );
  if (!(yield* takeStock(tx, movesPerLimit(links)))) return false;
  yield* run(
    tx
      .update(schema.selectedNodes)
      .set({ status: "held" })
      .where(and(inArray(schema.selectedNodes.id, ids), inArray(schema.selectedNodes.status, GIVEN_BACK_STATUSES)))
      .run(),
  );
  return true;
}

/**
 * The negative invoice that pays a late payment back in full, related to the invoice it refunds, its lines those
 * of the invoice (a line whose article was refunded already is left out: an article is refunded at most once).
 * Written unresolved: it is resolved once the provider has paid the money back.
 */
export function* writeLatePaymentRefund(
  tx: Db,
  basket: Basket,
  invoice: Invoice,
): Generator<unknown, Invoice, unknown> {
  const lines = yield* run(
    tx
      .select()
      .from(schema.invoiceLines)
      .where(and(eq(schema.invoiceLines.invoiceId, invoice.id), eq(schema.invoiceLines.isRefund, false)))
      .all(),
  );
  const refunded = lines.length
    ? yield* run(
        tx
          .select({ selectedNodeId: schema.invoiceLines.selectedNodeId })
          .from(schema.invoiceLines)
          .where(
            and(
              inArray(
                schema.invoiceLines.selectedNodeId,
                lines.map((line) => line.selectedNodeId),
              ),
              eq(schema.invoiceLines.isRefund, true),
            ),
          )
          .all(),
      )
    : [];
  const already = new Set(refunded.map((line) => line.selectedNodeId));
  return yield* writeInvoice(tx, {
    basket,
    unitId: invoice.unitId,
    amount: -invoice.amount,
    dueDate: null,
    relatedInvoiceId: invoice.id,
    reason: apiTranslator(basket.language)("late_payment.refund_reason"),
    isRefund: true,
    lines: lines
      .filter((line) => !already.has(line.selectedNodeId))
      .map((line) => ({ selectedNodeId: line.selectedNodeId, title: line.title, amount: -line.amount })),
  });
}
