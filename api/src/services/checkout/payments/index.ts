// The payment modules behind one interface (docs/design.md §4 "Payments"): which one takes a payment, opening it at the
// provider after the checkout's transaction, and cancelling an ongoing one.
import { eq, schema } from "@ticketing/db";
import type { PaymentMethod, PaymentModule as PaymentModuleKey } from "@ticketing/shared/constants";
import { conflict, providerFailed } from "../../../lib/errors.ts";
import type { Event } from "../../accounts/access.ts";
import type { Basket } from "../../baskets/baskets.ts";
import { resolvePayment } from "../payment-resolution.ts";
import { demoModule } from "./demo.ts";
import { type PaymentDeps, type PaymentModule, PaymentProviderError, type PaymentToStart } from "./module.ts";
import { pointOfSaleModule } from "./point-of-sale.ts";
import { stripeModule } from "./stripe.ts";

const MODULES: Record<PaymentModuleKey, PaymentModule> = {
  demo: demoModule,
  point_of_sale: pointOfSaleModule,
  stripe: stripeModule,
};

export function paymentModule(key: PaymentModuleKey): PaymentModule {
  return MODULES[key];
}

/**
 * The module a checkout pays through: the point of sale when chosen; online, the event's module, except in testing
 * (preview) baskets, which always pay on the demo page (docs/design.md §4 "Testing (preview) mode"). 409 when the
 * event's module cannot take payments (its unit's Stripe account is not set).
 */
export async function chooseModule(
  deps: PaymentDeps,
  event: Event,
  basket: Basket,
  method: PaymentMethod,
): Promise<PaymentModule> {
  if (method === "point_of_sale") return pointOfSaleModule;
  if (basket.testing) return demoModule;
  const module = paymentModule(event.onlinePaymentModule);
  if (!(await module.isReady(deps, event))) throw conflict("errors.online_payment_unavailable");
  return module;
}

/**
 * Opens the checkout's payment at its provider, outside the checkout's transaction (a network call). When the
 * provider cannot open it, the payment fails as if the provider had said so (the basket goes back to the buyer)
 * and the buyer is told (502). Answers the intent with the provider's id and page.
 */
export async function startPayment(deps: PaymentDeps, module: PaymentModule, payment: PaymentToStart) {
  let started: Awaited<ReturnType<PaymentModule["start"]>>;
  try {
    started = await module.start(deps, payment);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    await resolvePayment(deps.database, {
      intentId: payment.intent.id,
      pspId: payment.intent.pspId,
      outcome: "error",
      now: payment.now,
    });
    throw providerFailed("errors.payment_provider_unavailable");
  }
  const intent = await deps.database.db
    .update(schema.paymentIntents)
    .set({ pspId: started.pspId ?? payment.intent.pspId, hostedUrl: started.hostedUrl })
    .where(eq(schema.paymentIntents.id, payment.intent.id))
    .returning()
    .get();
  return intent ?? payment.intent;
}

export type { PaymentDeps, PaymentModule } from "./module.ts";
