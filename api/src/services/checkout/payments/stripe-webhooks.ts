// Stripe's notifications about a unit's Checkout Sessions (docs/design.md §4 "Payments"): each unit has its own webhook
// endpoint, `POST /payments/stripe/webhook/:unitId`, signed with the unit's signing secret. A notification is
// verified before anything is read, checked against the invoice it pays, and applied at most once.
import { and, type Db, eq, schema } from "@ticketing/db";
import type { PaymentOutcome } from "@ticketing/shared/constants";
import type { StripeWebhookReceived } from "@ticketing/shared/schemas/payments";
import { z } from "zod";
import { invalid } from "../../../lib/errors.ts";
import { resolvePayment } from "../payment-resolution.ts";
import { payBackLatePayments } from "./late-refunds.ts";
import type { PaymentDeps } from "./module.ts";
import { stripeAccountOf, stripeClient } from "./stripe.ts";

/** What the product reads of a notification: Stripe's event, and for a Checkout Session's, the session. */
const Notification = z.object({ id: z.string().min(1).max(255), type: z.string().max(255) });
const CheckoutSession = z.object({
  id: z.string().min(1).max(255),
  amount_total: z.number().nullable(),
  currency: z.string().nullable(),
  payment_status: z.string(),
  payment_intent: z.union([z.string(), z.object({ id: z.string() })]).nullable(),
});
const OUTCOMES: Record<string, PaymentOutcome> = {
  "checkout.session.completed": "success",
  "checkout.session.async_payment_succeeded": "success",
  "checkout.session.async_payment_failed": "error",
  "checkout.session.expired": "cancel",
};

/** What a Checkout Session's notification means for its payment; null for one that changes nothing here. */
function verdictOf(event: { type: string; data?: unknown }) {
  const outcome = Object.hasOwn(OUTCOMES, event.type) ? OUTCOMES[event.type] : undefined;
  if (!outcome) return null;
  const parsed = CheckoutSession.safeParse((event.data as { object?: unknown } | undefined)?.object);
  if (!parsed.success) throw invalid("errors.payment_unknown");
  const session = parsed.data;
  // Completed but not paid yet (a bank transfer): the async_payment_* notification follows.
  if (event.type === "checkout.session.completed" && session.payment_status !== "paid") return null;
  return { session, outcome };
}

/** The Stripe intent of a session, when it belongs to an event of the unit; else null. */
async function findSessionIntent(db: Db, sessionId: string, unitId: number) {
  const row = await db
    .select({ intent: schema.paymentIntents, invoice: schema.invoices })
    .from(schema.paymentIntents)
    .innerJoin(schema.invoices, eq(schema.invoices.id, schema.paymentIntents.invoiceId))
    .innerJoin(schema.baskets, eq(schema.baskets.id, schema.invoices.basketId))
    .innerJoin(schema.events, eq(schema.events.id, schema.baskets.eventId))
    .where(
      and(
        eq(schema.paymentIntents.pspId, sessionId),
        eq(schema.paymentIntents.moduleKey, "stripe"),
        eq(schema.events.unitId, unitId),
      ),
    )
    .get();
  return row ?? null;
}

/**
 * A notification from the unit's Stripe account: `raw` is the body as sent, `signature` its `Stripe-Signature`
 * header. 400 and nothing changes when the signature is wrong or missing, when the session is not one of the unit's
 * Stripe payments, or when its amount or currency is not the invoice's. A paid session validates the order and
 * queues the confirmation (or, paid too late, is accepted or paid back: docs/decisions/0010-late-payments.md); a
 * failed one gives the basket back with a payment reminder; an expired one cancels the payment.
 */
export async function receiveStripeWebhook(
  deps: PaymentDeps,
  unitId: number,
  raw: string,
  signature: string | undefined,
  now: Date,
): Promise<StripeWebhookReceived> {
  const { database, config } = deps;
  const account = await stripeAccountOf(database.db, config, unitId);
  if (!account || !signature) throw invalid("errors.payment_signature");
  let verified: unknown;
  try {
    verified = stripeClient(config, account.secretKey).webhooks.constructEvent(raw, signature, account.webhookSecret);
  } catch {
    throw invalid("errors.payment_signature");
  }
  // Signed by Stripe, so well formed; read defensively all the same.
  const envelope = Notification.safeParse(verified);
  if (!envelope.success) throw invalid("errors.payment_unknown");
  const event = { ...(verified as object), ...envelope.data };
  const verdict = verdictOf(event);
  if (!verdict) return { received: true, changed: false, basketStatus: null };
  const { session, outcome } = verdict;
  const found = await findSessionIntent(database.db, session.id, unitId);
  if (!found) throw invalid("errors.payment_unknown");
  if (session.amount_total !== found.invoice.amount || session.currency !== "chf")
    throw invalid("errors.payment_amount_mismatch");
  const paymentIntent = session.payment_intent;
  const result = await resolvePayment(database, {
    intentId: found.intent.id,
    pspId: session.id,
    outcome,
    now,
    providerEvent: { moduleKey: "stripe", id: event.id, type: event.type },
    pspPaymentId: typeof paymentIntent === "string" ? paymentIntent : (paymentIntent?.id ?? null),
  });
  if (result.changed && outcome !== "cancel") deps.onMailQueued?.();
  // A late payment to pay back: now, and again with each notification of this payment until the provider did.
  await payBackLatePayments(deps, now, { invoiceId: found.invoice.id });
  return { received: true, changed: result.changed, basketStatus: result.basket.status };
}
