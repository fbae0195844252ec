// Guard decisions of the ticket office (SPEC 2.3 "Redirect rules", SPEC 4), as pure functions.
import { type BasketStatus, PAYMENT_TERM_EXPIRED } from "@ticketing/shared/constants";
import type { BasketDetail as Basket, PaymentIntent } from "@ticketing/shared/schemas/ticket-office";

/** Neither cancelled nor in error, and its invoice is not resolved (SPEC 4). */
export const isOngoing = (intent: PaymentIntent) =>
  !intent.isCancelled && !intent.isError && !intent.invoice?.isResolved && !intent.invoice?.isCancelled;

export const ongoingPaymentIntent = (basket: Basket) => basket.paymentIntents.find(isOngoing) ?? null;

/** The basket's last payment ran past the event's payment term and was cancelled with its articles released. */
export const paymentTermExpired = (basket: Basket | null) =>
  basket !== null &&
  basket.items.length === 0 &&
  basket.paymentIntents[0]?.isCancelled === true &&
  basket.paymentIntents[0]?.errorMessage === PAYMENT_TERM_EXPIRED;

export const hasResolvedInvoice = (basket: Basket) =>
  basket.paymentIntents.some((intent) => intent.invoice?.isResolved);

/** Statuses of the basket a visitor is still buying with: filling it, or paying for it. */
const OPEN_STATUSES: readonly BasketStatus[] = ["new", "payment_in_progress"];
const COMPLETED_STATUSES: readonly BasketStatus[] = ["validated", "edition_in_progress"];

/** The basket to reuse: the newest open one (the API lists newest first). */
export const pickOpenBasket = <B extends { status: BasketStatus }>(baskets: B[]) =>
  baskets.find((basket) => OPEN_STATUSES.includes(basket.status)) ?? null;

/** The order to confirm: the newest paid one. */
export const pickCompletedBasket = <B extends { status: BasketStatus }>(baskets: B[]) =>
  baskets.find((basket) => COMPLETED_STATUSES.includes(basket.status)) ?? null;

export type GuardTarget = "buy" | "completion" | "checkout/payment-method";
/** The checkout wizard's steps, in order (SPEC 2.4). */
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
