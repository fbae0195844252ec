// The `stripe` payment module (docs/design.md §4 "Payments"): Stripe's hosted Checkout, so card data never touches our
// pages, through the official `stripe` package. Each unit has its own Stripe account: its secret key and webhook
// signing secret are stored encrypted (lib/secrets.ts) and read here for each call.
import { type Db, eq, schema } from "@ticketing/db";
import { inLanguage } from "@ticketing/shared/content-language";
import { ticketOfficeUrl } from "@ticketing/shared/ticket-office";
import Stripe from "stripe";
import type { Config } from "../../../env.ts";
import { decryptSecret } from "../../../lib/secrets.ts";
import { type PaymentDeps, type PaymentModule, PaymentProviderError } from "./module.ts";

/** Stripe's bounds for a Checkout Session's `expires_at`: 30 minutes to 24 hours after its creation. */
const MIN_SESSION_MINUTES = 30;
const MAX_SESSION_MINUTES = 24 * 60;
/** Our own clock and Stripe's are not the same: a session asked at exactly 30 minutes could be refused. */
const CLOCK_MARGIN_SECONDS = 60;

export interface StripeAccount {
  secretKey: string;
  webhookSecret: string;
}

/** A unit's Stripe account, when both its secrets are set and open with the product's secret; else null. */
export async function stripeAccountOf(
  db: Db,
  config: Pick<Config, "secretKey">,
  unitId: number,
): Promise<StripeAccount | null> {
  const unit = await db
    .select({
      secretKey: schema.units.stripeSecretKeyEncrypted,
      webhookSecret: schema.units.stripeWebhookSecretEncrypted,
    })
    .from(schema.units)
    .where(eq(schema.units.id, unitId))
    .get();
  if (!unit?.secretKey || !unit.webhookSecret) return null;
  const secretKey = decryptSecret(config.secretKey, unit.secretKey);
  const webhookSecret = decryptSecret(config.secretKey, unit.webhookSecret);
  return secretKey && webhookSecret ? { secretKey, webhookSecret } : null;
}

/** A client of one account, talking to Stripe or to the stand-in STRIPE_API_URL names (tests). */
export function stripeClient(config: Pick<Config, "stripeApi">, secretKey: string) {
  return new Stripe(secretKey, {
    ...(config.stripeApi ?? {}),
    maxNetworkRetries: 1,
    timeout: 10_000,
    telemetry: false,
  });
}

async function clientFor({ database, config }: PaymentDeps, unitId: number) {
  const account = await stripeAccountOf(database.db, config, unitId);
  if (!account) throw new PaymentProviderError("The unit's Stripe account is not set");
  return stripeClient(config, account.secretKey);
}

/** Runs a call to Stripe; whatever Stripe answers wrong (or not at all) is the provider's failure. */
async function calling<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) throw new PaymentProviderError(error.message, { cause: error });
    throw error;
  }
}

export const stripeModule: PaymentModule = {
  key: "stripe",
  isReady: async ({ database, config }, event) => (await stripeAccountOf(database.db, config, event.unitId)) !== null,

  async start(deps, { intent, invoice, basket, event, email, language, siteUrl, now }) {
    const stripe = await clientFor(deps, event.unitId);
    // Back to the origin the buyer paid from: their session is there (docs/decisions/0030).
    const back = (outcome: "success" | "cancel") =>
      ticketOfficeUrl(siteUrl, event, basket.testing, `payment/return/${intent.id}/${outcome}`);
    const minutes = Math.min(MAX_SESSION_MINUTES, Math.max(MIN_SESSION_MINUTES, event.paymentTermMinutes));
    const session = await calling(() =>
      stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "chf",
                unit_amount: invoice.amount,
                // The buyer reads Stripe's page in their language (`locale`): the event's title too.
                product_data: {
                  name: `${inLanguage(event.frontendTitle, event.frontendTitleFr, language)} — ${basket.unikey}`,
                },
              },
            },
          ],
          client_reference_id: String(intent.id),
          metadata: { intent_id: String(intent.id), invoice_id: String(invoice.id), basket_id: String(basket.id) },
          customer_email: email,
          locale: language,
          success_url: back("success"),
          cancel_url: back("cancel"),
          expires_at: Math.floor(now.getTime() / 1000) + minutes * 60 + CLOCK_MARGIN_SECONDS,
        },
        { idempotencyKey: `checkout-${intent.pspId}` },
      ),
    );
    if (!session.url) throw new PaymentProviderError("Stripe answered a Checkout Session without a page");
    return { pspId: session.id, hostedUrl: session.url };
  },

  async refund(deps, { intent, refundInvoice, amount, event }) {
    if (!intent.pspPaymentId) throw new PaymentProviderError("No Stripe payment to refund");
    const stripe = await clientFor(deps, event.unitId);
    const paymentIntent = intent.pspPaymentId;
    const refund = await calling(() =>
      stripe.refunds.create(
        { payment_intent: paymentIntent, amount },
        { idempotencyKey: `refund-${refundInvoice.id}` },
      ),
    );
    return { pspRefundId: refund.id };
  },

  /** Expires the Checkout Session; one that already expired is cancelled already, one that was paid is not. */
  async cancel(deps, { intent, event }) {
    const stripe = await clientFor(deps, event.unitId);
    try {
      await stripe.checkout.sessions.expire(intent.pspId);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      const session = await calling(() => stripe.checkout.sessions.retrieve(intent.pspId));
      if (session.status !== "expired") throw new PaymentProviderError(error.message, { cause: error });
    }
  },
};
