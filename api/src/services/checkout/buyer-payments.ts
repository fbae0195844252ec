// The buyer's own payments (`/frontend/payment-intents/:id/…`, docs/design.md §4 "Payments"): cancelling an ongoing one
// through the module that opened it.
import { eq, schema } from "@ticketing/db";
import type { BasketDetail } from "@ticketing/shared/schemas/ticket-office";
import { conflict, notFound } from "../../lib/errors.ts";
import { findBuyerBasket, getBuyerBasket } from "../baskets/buyer-baskets.ts";
import { paymentState } from "../baskets/payment-state.ts";
import { resolvePayment } from "./payment-resolution.ts";
import { type PaymentDeps, paymentModule } from "./payments/index.ts";
import { PaymentProviderError } from "./payments/module.ts";

/**
 * Cancels one of the caller's ongoing payments (404 for anyone else's, 409 when it is no longer ongoing): first at
 * the provider, outside any transaction (a network call), then here, which gives the basket back to the buyer.
 * When the provider cannot cancel it (Stripe: the buyer paid meanwhile), nothing changes here and the buyer is told
 * (409 "Failed to cancel an ongoing payment"); the provider's notification then settles the payment. Answers the
 * basket.
 */
export async function cancelBuyerPayment(
  deps: PaymentDeps,
  input: { loginIds: number[]; intentId: number; now: Date },
): Promise<BasketDetail> {
  const { database } = deps;
  const row = await database.db
    .select({ intent: schema.paymentIntents, invoice: schema.invoices })
    .from(schema.paymentIntents)
    .innerJoin(schema.invoices, eq(schema.invoices.id, schema.paymentIntents.invoiceId))
    .where(eq(schema.paymentIntents.id, input.intentId))
    .get();
  if (!row) throw notFound();
  const { basket, event } = await findBuyerBasket(database.db, input.loginIds, row.invoice.basketId);
  if (paymentState(row.intent, row.invoice) !== "open") throw conflict("errors.payment_not_ongoing");
  try {
    await paymentModule(row.intent.moduleKey).cancel(deps, { intent: row.intent, event });
  } catch (error) {
    if (error instanceof PaymentProviderError) throw conflict("errors.payment_cancel_failed");
    throw error;
  }
  const result = await resolvePayment(database, {
    intentId: row.intent.id,
    pspId: row.intent.pspId,
    outcome: "cancel",
    now: input.now,
  });
  // Paid in the meantime (the provider's confirmation won the race): the payment was not cancelled.
  if (!result.changed) {
    const invoice = await database.db
      .select()
      .from(schema.invoices)
      .where(eq(schema.invoices.id, row.invoice.id))
      .get();
    if (invoice?.isResolved) throw conflict("errors.payment_cancel_failed");
  }
  return getBuyerBasket(database.db, input.loginIds, basket.id);
}
