// What the Stripe tests share: the stand-in and the product over real HTTP, an event on sale through Stripe with
// its unit's account set, a buyer checking out and paying on the hosted page, the notifications Stripe signs and
// what they may change.
import { randomBytes } from "node:crypto";
import { and, eq, schema } from "@ticketing/db";
import Stripe from "stripe";
import { expect } from "vitest";
import {
  BILLING,
  createOnSaleEvent,
  checkOut as postCheckout,
  readyBuyer,
  type TestDriver,
  testStripeKey,
  useStripeWorld,
  writeEventRow,
  writeUnitStripeSecrets,
} from "../../../test-support.ts";

export const EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
] as const;

/** Registers the hooks of a test file's stand-in and product on `driver`, and gives the helpers that use them. */
export function useStripeSales(driver: TestDriver) {
  const world = useStripeWorld(driver);
  const { standIn, ctx } = world;

  const deps = () => ({ database: ctx.database, config: ctx.config });
  const stripeOf = (secretKey: string) => new Stripe(secretKey, { ...ctx.config.stripeApi, maxNetworkRetries: 0 });

  /**
   * An event on sale through Stripe, its unit's account set: with a webhook endpoint configured at Stripe (the
   * stand-in) unless `endpoint` is false, in which case the test delivers the notifications itself.
   */
  async function stripeSale(input: { stock: number; price?: number; endpoint?: boolean }) {
    const sale = await createOnSaleEvent(ctx, { stock: input.stock, price: input.price ?? 4500 });
    await writeEventRow(ctx, sale.event.id, { onlinePaymentModule: "stripe" });
    const unitId = sale.event.unitId;
    const secretKey = testStripeKey();
    let webhookSecret = `whsec_${randomBytes(16).toString("hex")}`;
    if (input.endpoint !== false) {
      const endpoint = await stripeOf(secretKey).webhookEndpoints.create({
        url: `${world.appUrl}/api/v1/payments/stripe/webhook/${unitId}`,
        enabled_events: [...EVENTS],
      });
      webhookSecret = endpoint.secret as string;
    }
    await writeUnitStripeSecrets(ctx, unitId, { secretKey, webhookSecret });
    return { ...sale, unitId, secretKey, webhookSecret };
  }
  type Sale = Awaited<ReturnType<typeof stripeSale>>;

  async function checkOut(sale: Sale, items = 1, language = "en") {
    const buyer = await readyBuyer(ctx, sale, { count: items });
    const checkout = await postCheckout(ctx, buyer, "online", language);
    expect(checkout.status).toBe(200);
    const intent = checkout.body.payment_intent;
    return { ...buyer, intentId: intent.id as number, sessionId: intent.psp_id as string, checkout: checkout.body };
  }
  type Bought = Awaited<ReturnType<typeof checkOut>>;

  /** The buyer presses Pay on the hosted page: answers where the page sends them. */
  async function pay(bought: Bought) {
    const answer = await fetch(bought.checkout.payment_url, { method: "POST", redirect: "manual" });
    expect(answer.status).toBe(303);
    return answer.headers.get("location");
  }
  /** Stripe's notification of `type` about the session, as the stand-in made it. */
  const eventOf = (sessionId: string, type: string) => {
    const event = standIn.events.find(
      (e) => e.type === type && (e.data as { object: { id: string } }).object.id === sessionId,
    );
    if (!event) throw new Error(`no ${type} for ${sessionId}`);
    return structuredClone(event) as Record<string, unknown> & {
      id: string;
      data: { object: Record<string, unknown> };
    };
  };
  const post = (unitId: number, payload: string, signature?: string) =>
    ctx.call("POST", `/payments/stripe/webhook/${unitId}`, {
      body: payload,
      headers: signature ? { "stripe-signature": signature } : {},
    });
  const sign = (payload: string, secret: string) => Stripe.webhooks.generateTestHeaderString({ payload, secret });
  const deliver = (sale: Sale, event: object) => {
    const payload = JSON.stringify(event);
    return post(sale.unitId, payload, sign(payload, sale.webhookSecret));
  };

  const basketOf = (bought: Bought) =>
    ctx.database.db.select().from(schema.baskets).where(eq(schema.baskets.id, bought.basketId)).get();
  const invoicesOf = (bought: Bought) =>
    ctx.database.db.select().from(schema.invoices).where(eq(schema.invoices.basketId, bought.basketId)).all();
  const intentOf = (bought: Bought) =>
    ctx.database.db.select().from(schema.paymentIntents).where(eq(schema.paymentIntents.id, bought.intentId)).get();
  const mailsOf = (kind: (typeof schema.mailOutbox.$inferSelect)["kind"], to = BILLING.email) =>
    ctx.database.db
      .select()
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.kind, kind), eq(schema.mailOutbox.to, to)))
      .all();
  /** Everything a notification could change. */
  const state = async (bought: Bought) => ({
    basket: (await basketOf(bought))?.status,
    invoices: await invoicesOf(bought),
    intent: await intentOf(bought),
    mails: (await ctx.database.db.select().from(schema.mailOutbox).all()).length,
    providerEvents: await ctx.database.db.select().from(schema.providerEvents).all(),
  });
  return {
    world,
    standIn,
    ctx,
    deps,
    stripeSale,
    checkOut,
    pay,
    eventOf,
    post,
    sign,
    deliver,
    basketOf,
    invoicesOf,
    intentOf,
    mailsOf,
    state,
  };
}
