// Guard decisions of the ticket office (docs/specification.md §2.3 "Redirect rules", §4), as pure functions.
import {
  type BasketStatus,
  OPEN_BASKET_STATUSES,
  PAYMENT_TERM_EXPIRED,
  SOLD_BASKET_STATUSES,
} from "@ticketing/shared/constants";
import type { BasketDetail as Basket } from "@ticketing/shared/schemas/ticket-office";

/** The basket's payment still open to pay, as the API says (`isOngoing`: not paid, failed, cancelled or expired). */
export const ongoingPaymentIntent = (basket: Basket) =>
  basket.paymentIntents.find((intent) => intent.isOngoing) ?? null;

/** The basket's last payment ran past the event's payment term and was cancelled with its articles released. */
export const paymentTermExpired = (basket: Basket | null) =>
  basket !== null &&
  basket.items.length === 0 &&
  basket.paymentIntents[0]?.isCancelled === true &&
  basket.paymentIntents[0]?.errorMessage === PAYMENT_TERM_EXPIRED;

export const hasResolvedInvoice = (basket: Basket) =>
  basket.paymentIntents.some((intent) => intent.invoice?.isResolved);

const isOneOf = (statuses: readonly BasketStatus[], status: BasketStatus) => statuses.includes(status);

/** The basket to reuse: the newest open one (the API lists newest first). */
export const pickOpenBasket = <B extends { status: BasketStatus }>(baskets: B[]) =>
  baskets.find((basket) => isOneOf(OPEN_BASKET_STATUSES, basket.status)) ?? null;

/** The order to confirm: the newest paid one. */
export const pickCompletedBasket = <B extends { status: BasketStatus }>(baskets: B[]) =>
  baskets.find((basket) => isOneOf(SOLD_BASKET_STATUSES, basket.status)) ?? null;

export type GuardTarget = "buy" | "completion" | "checkout/payment-method";
/** The checkout wizard's steps, in order (docs/specification.md §2.4). */
export type WizardStep = "forms" | "billing-information" | "payment-method";

/** `buy`: a paid basket goes to completion, a basket being paid to the payment step. */
export function buyRedirect(basket: Basket | null): GuardTarget | null {
  if (!basket) return null;
  if (hasResolvedInvoice(basket)) return "completion";
  if (ongoingPaymentIntent(basket)) return "checkout/payment-method";
  return null;
}

/**
 * Wizard steps: no or an empty basket goes back to `buy` (or to completion when the newest basket is
 * already paid); a resolved invoice goes to completion; an ongoing payment leaves forms and billing
 * information for the payment step, which itself stays to offer continuing that payment.
 */
export function wizardRedirect(
  basket: Basket | null,
  { step, newestIsCompleted }: { step: WizardStep; newestIsCompleted: boolean },
): GuardTarget | null {
  if (!basket) return newestIsCompleted ? "completion" : "buy";
  if (hasResolvedInvoice(basket)) return "completion";
  if (basket.items.length === 0) return "buy";
  if (step !== "payment-method" && ongoingPaymentIntent(basket)) return "checkout/payment-method";
  return null;
}
