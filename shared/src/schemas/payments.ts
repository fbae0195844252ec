// The `demo` payment module (docs/design.md §4 "Payments"): its hosted page, the buyer's choice on it, and the
// HMAC-signed webhook that resolves the invoice.
import { z } from "zod";
import { BASKET_STATUSES, PAYMENT_OUTCOMES } from "../constants.ts";

/** The page's link carries its signature; without one the page is not found. */
export const DemoPaymentPageQuery = z.object({ sig: z.string().optional() });
export type DemoPaymentPageQuery = z.output<typeof DemoPaymentPageQuery>;

/** The page's form: the signature it was opened with and the button pressed. */
export const DemoPaymentChoice = z.strictObject({ sig: z.string(), outcome: z.enum(PAYMENT_OUTCOMES) });
export type DemoPaymentChoice = z.output<typeof DemoPaymentChoice>;

/** The provider's verdict on an intent, signed with `X-Signature: sha256=<HMAC of the body>`. */
export const DemoWebhook = z.strictObject({
  intentId: z.number().int().positive(),
  pspId: z.string().min(1),
  outcome: z.enum(PAYMENT_OUTCOMES),
});
export type DemoWebhook = z.output<typeof DemoWebhook>;

/** `changed` is false when the verdict came again, or after the payment was closed. */
export const DemoWebhookReceived = z.object({
  received: z.literal(true),
  changed: z.boolean(),
  basketStatus: z.enum(BASKET_STATUSES),
});
export type DemoWebhookReceived = z.output<typeof DemoWebhookReceived>;

/**
 * Stripe's notification, received: `changed` is false when it came before, or changes nothing here (an event type
 * the product does not act on, whose `basketStatus` is then null).
 */
export const StripeWebhookReceived = z.object({
  received: z.literal(true),
  changed: z.boolean(),
  basketStatus: z.enum(BASKET_STATUSES).nullable(),
});
export type StripeWebhookReceived = z.output<typeof StripeWebhookReceived>;
