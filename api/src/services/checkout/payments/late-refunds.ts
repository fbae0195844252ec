// Paying back late payments that could not be accepted (docs/decisions/0010-late-payments.md). The refund invoice
// was written with the payment; the money goes back here, outside any transaction, through the module that took
// it. A refund the provider refused stays unresolved (the back office shows it pending) and is tried again by the
// next notification of the same payment and by the product's sweep.
import { and, eq, isNotNull, lt, run, schema } from "@ticketing/db";
import { log } from "../../../lib/log.ts";
import { enqueueWebhook, refundSource } from "../../../lib/webhook-outbox.ts";
import type { Event } from "../../accounts/access.ts";
import { mailBasketBuyer } from "../../mail/queue.ts";
import type { Invoice, PaymentIntent } from "../checkout.ts";
import { paymentModule } from "./index.ts";
import { type PaymentDeps, PaymentProviderError } from "./module.ts";

interface LateRefund {
  refund: Invoice;
  intent: PaymentIntent;
  event: Event;
}

/**
 * Refund invoices still unpaid of late payments: an unresolved negative invoice whose related invoice was paid
 * through an intent that had been cancelled or had failed. Staff refunds (services/refunds) are of payments that
 * went through, whose intents are neither.
 */
async function pendingLateRefunds({ database }: PaymentDeps, invoiceId?: number): Promise<LateRefund[]> {
  const db = database.db;
  const refunds = await db
    .select()
    .from(schema.invoices)
    .where(
      and(
        isNotNull(schema.invoices.relatedInvoiceId),
        lt(schema.invoices.amount, 0),
        eq(schema.invoices.isResolved, false),
        eq(schema.invoices.isCancelled, false),
        invoiceId === undefined ? undefined : eq(schema.invoices.relatedInvoiceId, invoiceId),
      ),
    )
    .all();
  const pending: LateRefund[] = [];
  for (const refund of refunds) {
    const row = await db
      .select({ intent: schema.paymentIntents, event: schema.events })
      .from(schema.paymentIntents)
      .innerJoin(schema.invoices, eq(schema.invoices.id, schema.paymentIntents.invoiceId))
      .innerJoin(schema.baskets, eq(schema.baskets.id, schema.invoices.basketId))
      .innerJoin(schema.events, eq(schema.events.id, schema.baskets.eventId))
      .where(and(eq(schema.invoices.id, refund.relatedInvoiceId as number), eq(schema.invoices.isResolved, true)))
      .get();
    if (row && (row.intent.isCancelled || row.intent.isError)) pending.push({ refund, ...row });
  }
  return pending;
}

/**
 * Pays back the pending refunds of late payments (all of them, or those of one invoice): each through the module
 * that took the money, with the refund invoice's id as the provider's idempotency key, so that two attempts at
 * once pay back once. A refund paid back resolves its invoice and queues the buyer's refund mail, once.
 * Answers how many were paid back.
 */
export async function payBackLatePayments(deps: PaymentDeps, now: Date, only?: { invoiceId: number }) {
  let paidBack = 0;
  for (const { refund, intent, event } of await pendingLateRefunds(deps, only?.invoiceId)) {
    let pspRefundId: string | null;
    try {
      ({ pspRefundId } = await paymentModule(intent.moduleKey).refund(deps, {
        intent,
        refundInvoice: refund,
        amount: -refund.amount,
        event,
      }));
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      (deps.logger ?? log).warn({ payment: intent.id, reason: error.message }, "late payment not paid back yet");
      continue;
    }
    const settled = await deps.database.transaction(function* (tx) {
      const resolved = yield* run(
        tx
          .update(schema.invoices)
          .set({ isResolved: true, resolvedAt: now.toISOString(), pspRefundId })
          .where(and(eq(schema.invoices.id, refund.id), eq(schema.invoices.isResolved, false)))
          .returning()
          .get(),
      );
      if (!resolved) return false;
      yield* mailBasketBuyer(tx, refund.basketId, "refund", { basket_id: refund.basketId, invoice_id: refund.id });
      yield* enqueueWebhook(tx, "order.refunded", refundSource(refund.id), now);
      return true;
    });
    if (settled) {
      paidBack += 1;
      deps.onMailQueued?.();
    }
  }
  return paidBack;
}
