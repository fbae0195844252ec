// The `demo` payment module (docs/design.md §4 "Payments"): a hosted payment page served by the API, and an
// HMAC-signed webhook that resolves the invoice exactly once.

import { type Database, type Db, eq, schema } from "@ticketing/db";
import { camelizeKeys } from "@ticketing/shared/case";
import type { Language } from "@ticketing/shared/constants";
import { DemoWebhook, type DemoWebhookReceived } from "@ticketing/shared/schemas/payments";
import { ticketOfficePath } from "@ticketing/shared/ticket-office";
import type { Config } from "../../../env.ts";
import { DomainError, invalid, notFound } from "../../../lib/errors.ts";
import { parseWith } from "../../../lib/http.ts";
import { hmacHex, hmacMatches } from "../../../lib/tokens.ts";
import { type PaymentState, paymentState } from "../../baskets/payment-state.ts";
import { resolvePayment } from "../payment-resolution.ts";
import type { PaymentModule } from "./module.ts";

type Links = Pick<Config, "secretKey">;
type Deps = { database: Database; config: Links; onMailQueued?: () => void };

const isHmac = (text: string) => /^[0-9a-f]{64}$/.test(text);

/**
 * The hosted demo payment page of an intent, on `origin` (a path of this site when it is ""): the link carries an
 * HMAC so only the buyer's link opens it.
 */
export const demoPaymentUrl = (origin: string, secret: string, intent: { id: number; pspId: string }) =>
  `${origin}/api/v1/payments/demo/pay/${intent.id}?sig=${hmacHex(secret, `demo-pay:${intent.pspId}`)}`;

/**
 * The demo provider lives in the product: its page is ours, on the origin the buyer is on, its refunds move no
 * money, and cancelling closes the intent (the page then refuses to pay).
 */
export const demoModule: PaymentModule = {
  key: "demo",
  isReady: async () => true,
  start: async ({ config }, { intent, siteUrl }) => ({ hostedUrl: demoPaymentUrl(siteUrl, config.secretKey, intent) }),
  refund: async () => ({ pspRefundId: null }),
  cancel: async () => {},
};

/** The demo intent the page's signature opens, with its invoice, basket and event; 404 for any other. */
async function findDemoIntent(db: Db, secretKey: string, intentId: number, signature: string) {
  const row = await db
    .select({ intent: schema.paymentIntents, invoice: schema.invoices, basket: schema.baskets, event: schema.events })
    .from(schema.paymentIntents)
    .innerJoin(schema.invoices, eq(schema.invoices.id, schema.paymentIntents.invoiceId))
    .innerJoin(schema.baskets, eq(schema.baskets.id, schema.invoices.basketId))
    .innerJoin(schema.events, eq(schema.events.id, schema.baskets.eventId))
    .where(eq(schema.paymentIntents.id, intentId))
    .get();
  if (row?.intent.moduleKey !== "demo") throw notFound();
  if (!isHmac(signature) || !hmacMatches(secretKey, `demo-pay:${row.intent.pspId}`, signature)) throw notFound();
  return row;
}

type DemoIntent = Awaited<ReturnType<typeof findDemoIntent>>;

/**
 * The ticket-office page a closed payment leads back to: a path, so that the buyer stays on the origin the page
 * was opened on, where their session is (docs/decisions/0030).
 */
function nextStep({ intent, basket, event }: DemoIntent, state: Exclude<PaymentState, "open">) {
  const step = {
    paid: `payment/return/${intent.id}/success`,
    // The basket was emptied with the expiry: the buy page says so and offers its articles again.
    expired: "buy",
    cancelled: "checkout/payment-method",
    failed: "checkout/payment-method",
  }[state];
  return ticketOfficePath(event.frontendPath, basket.testing, step);
}

export interface DemoPaymentPage {
  /** The buyer's language at checkout, whatever the browser says. */
  language: Language;
  /** cents */
  amount: number;
  state: PaymentState;
  /** Where a closed payment leads back to in the ticket office (a path of this site); null while it is open. */
  next: string | null;
}

/** What the hosted page shows for the intent its signed link opens: the amount, or where the payment stands. */
export async function showDemoPayment(
  database: Database,
  links: Links,
  intentId: number,
  signature: string,
): Promise<DemoPaymentPage> {
  const row = await findDemoIntent(database.db, links.secretKey, intentId, signature);
  const state = paymentState(row.intent, row.invoice);
  return {
    language: row.basket.language,
    amount: row.invoice.amount,
    state,
    next: state === "open" ? null : nextStep(row, state),
  };
}

/**
 * The buyer pressed a button on the hosted page: the provider sends its verdict through the signed webhook, as a
 * real provider would. Answers where to send the buyer, as a path of the origin the page is on (its form may lead
 * only there, `form-action 'self'`): the ticket office's return page when the payment changed or is paid,
 * otherwise the page itself, which then says where the payment stands.
 */
export async function payDemo(
  deps: Deps,
  intentId: number,
  choice: { sig: string; outcome: DemoWebhook["outcome"] },
  now: Date,
): Promise<string> {
  const { database, config } = deps;
  const { intent } = await findDemoIntent(database.db, config.secretKey, intentId, choice.sig);
  const body = JSON.stringify({ intent_id: intent.id, psp_id: intent.pspId, outcome: choice.outcome });
  const webhook = await receiveDemoWebhook(deps, body, `sha256=${hmacHex(config.secretKey, body)}`, now).catch(
    (error: unknown) => {
      if (error instanceof DomainError) return { changed: false };
      throw error;
    },
  );
  // The outcome is what the payment now is, not the button pressed: "pay" on a payment cancelled or expired
  // meanwhile changes nothing, and must not send the buyer to a success page that then waits forever.
  const row = await findDemoIntent(database.db, config.secretKey, intentId, choice.sig);
  const state = paymentState(row.intent, row.invoice);
  if (state === "paid" || webhook.changed) {
    const outcome = state === "paid" ? "success" : choice.outcome;
    return ticketOfficePath(row.event.frontendPath, row.basket.testing, `payment/return/${intent.id}/${outcome}`);
  }
  return demoPaymentUrl("", config.secretKey, intent);
}

/**
 * The provider's verdict: `raw` is the body as sent, `signature` its `X-Signature` header (`sha256=<hex>`),
 * checked before the body is read. A success queues the confirmation mail, an error the payment reminder
 * (`onMailQueued` is told).
 */
export async function receiveDemoWebhook(
  { database, config, onMailQueued }: Deps,
  raw: string,
  signature: string | undefined,
  now: Date,
): Promise<DemoWebhookReceived> {
  const hex = (signature ?? "").replace(/^sha256=/, "");
  if (!isHmac(hex) || !hmacMatches(config.secretKey, raw, hex)) throw invalid("errors.payment_signature");
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalid("errors.body_json");
  }
  const verdict = parseWith(DemoWebhook, camelizeKeys(json));
  const result = await resolvePayment(database, { ...verdict, now });
  if (result.changed && verdict.outcome !== "cancel") onMailQueued?.();
  return { received: true, changed: result.changed, basketStatus: result.basket.status };
}
