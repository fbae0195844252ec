// Stripe Checkout end to end against the local stand-in (api/src/stripe-stand-in): the real `stripe` client over
// real HTTP, the stand-in's hosted page, and its signed webhooks posted to the product over HTTP.
import { randomBytes } from "node:crypto";
import { and, eq, schema } from "@ticketing/db";
import fc from "fast-check";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import {
  BILLING,
  createOnSaleEvent,
  DRIVERS,
  checkOut as postCheckout,
  readyBuyer,
  stockCountersAndRows,
  testStripeKey,
  useStripeWorld,
  writeEventRow,
  writeUnitStripeSecrets,
} from "../../../test-support.ts";
import { renderMail } from "../../mail/templates/registry.ts";
import { expireUnpaidPayments } from "../expired-payments.ts";
import { payBackLatePayments } from "./late-refunds.ts";
import { PaymentProviderError } from "./module.ts";
import { stripeModule } from "./stripe.ts";

const EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
] as const;
const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

describe.each(DRIVERS)("Stripe Checkout through the stand-in (%s)", (driver) => {
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

  it("pays on the hosted page: the signed webhook validates the order and queues one confirmation", async () => {
    const sale = await stripeSale({ stock: 5 });
    const before = (await mailsOf("order_confirmation")).length;
    const bought = await checkOut(sale, 1, "fr");
    expect(bought.checkout.basket.status).toBe("payment_in_progress");
    expect(bought.sessionId).toMatch(/^cs_test_/);
    expect(bought.checkout.payment_url).toBe(`${standIn.url}/c/pay/${bought.sessionId}`);
    const office = `http://localhost:3000/tickets/${sale.event.frontendPath}`;
    expect(standIn.session(bought.sessionId)).toMatchObject({
      mode: "payment",
      amount_total: 4500,
      currency: "chf",
      client_reference_id: String(bought.intentId),
      metadata: { intent_id: String(bought.intentId), basket_id: String(bought.basketId) },
      customer_email: BILLING.email,
      locale: "fr",
      success_url: `${office}/payment/return/${bought.intentId}/success`,
      cancel_url: `${office}/payment/return/${bought.intentId}/cancel`,
      status: "open",
    });
    // Stripe's page lasts the payment term (30 minutes, Stripe's minimum) and a minute for the clocks.
    const expiresAt = Number(standIn.session(bought.sessionId)?.expires_at) * 1000;
    expect(expiresAt - Date.now()).toBeGreaterThan(30 * 60_000);
    expect(expiresAt - Date.now()).toBeLessThan(32 * 60_000);

    const page = await (await fetch(bought.checkout.payment_url)).text();
    expect(page).toContain("CHF 45.00");
    expect(page).toContain("Payer");
    expect(await pay(bought)).toBe(`${office}/payment/return/${bought.intentId}/success`);

    expect(standIn.deliveries.filter((d) => d.event.type === "checkout.session.completed").at(-1)?.status).toBe(200);
    expect((await basketOf(bought))?.status).toBe("validated");
    const [invoice] = await invoicesOf(bought);
    expect(invoice).toMatchObject({ amount: 4500, isResolved: true, isCancelled: false });
    expect((await intentOf(bought))?.pspPaymentId).toBe(standIn.session(bought.sessionId)?.payment_intent);
    expect(await mailsOf("order_confirmation")).toHaveLength(before + 1);
    const paid = await ctx.call("GET", `/frontend/baskets/${bought.basketId}`, { token: bought.token });
    expect(paid.body.status).toBe("validated");
  });

  // Issue 28, finding 1 (docs/decisions/0030): the buyer's session cookie lives on the host they checked out from.
  it("sends the buyer back to the origin they checked out from, not to PUBLIC_URL's host", async () => {
    const sale = await stripeSale({ stock: 5 });
    const buyer = await readyBuyer(ctx, sale);
    // The product reached on 127.0.0.1 over HTTP, while PUBLIC_URL is http://localhost:3000.
    const answer = await fetch(`${world.appUrl}/api/v1/frontend/baskets/${buyer.basketId}/checkout`, {
      method: "POST",
      headers: { authorization: `Bearer ${buyer.token}`, "content-type": "application/json", origin: world.appUrl },
      body: JSON.stringify({ payment_method: "online", terms_accepted: true }),
    });
    expect(answer.status).toBe(200);
    const checkout = await answer.json();
    const intentId = checkout.payment_intent.id as number;
    const office = `${world.appUrl}/tickets/${sale.event.frontendPath}`;
    expect(standIn.session(checkout.payment_intent.psp_id)).toMatchObject({
      success_url: `${office}/payment/return/${intentId}/success`,
      cancel_url: `${office}/payment/return/${intentId}/cancel`,
    });
    expect(await pay({ ...buyer, intentId, sessionId: checkout.payment_intent.psp_id, checkout })).toBe(
      `${office}/payment/return/${intentId}/success`,
    );
  });

  it("applies 20 concurrent deliveries of one notification once: one invoice resolved, one confirmation", async () => {
    const sale = await stripeSale({ stock: 5, endpoint: false });
    const bought = await checkOut(sale);
    await pay(bought);
    // No endpoint was configured: nothing arrived yet.
    expect((await basketOf(bought))?.status).toBe("payment_in_progress");
    const event = eventOf(bought.sessionId, "checkout.session.completed");
    const before = (await mailsOf("order_confirmation")).length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(sale, event)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.body.changed)).toHaveLength(1);
    expect(answers.every((a) => a.body.basket_status === "validated" || a.body.changed === false)).toBe(true);
    expect((await basketOf(bought))?.status).toBe("validated");
    expect((await invoicesOf(bought)).filter((i) => i.isResolved)).toHaveLength(1);
    expect(await mailsOf("order_confirmation")).toHaveLength(before + 1);
    const recorded = await ctx.database.db
      .select()
      .from(schema.providerEvents)
      .where(eq(schema.providerEvents.providerEventId, event.id))
      .all();
    expect(recorded).toEqual([expect.objectContaining({ moduleKey: "stripe", type: "checkout.session.completed" })]);
  });

  it("refuses a tampered or missing signature, a wrong amount or currency and an unknown session: 400, nothing changes", async () => {
    const sale = await stripeSale({ stock: 5, endpoint: false });
    const other = await stripeSale({ stock: 5, endpoint: false });
    const bought = await checkOut(sale);
    await pay(bought);
    const event = eventOf(bought.sessionId, "checkout.session.completed");
    const genuine = JSON.stringify(event);
    const before = await state(bought);
    const withSession = (changes: Record<string, unknown>) =>
      JSON.stringify({ ...event, data: { object: { ...event.data.object, ...changes } } });

    const refusals = [
      // The body changed after Stripe signed it.
      [await post(sale.unitId, withSession({ amount_total: 1 }), sign(genuine, sale.webhookSecret)), "signature"],
      [await post(sale.unitId, genuine), "signature"],
      [await post(sale.unitId, genuine, sign(genuine, `whsec_${randomBytes(16).toString("hex")}`)), "signature"],
      [await post(sale.unitId, genuine, "t=1,v1=00"), "signature"],
      // Signed by the unit's secret, but not what the invoice asks for, or not a payment of this unit.
      [await deliver(sale, JSON.parse(withSession({ amount_total: 4400 }))), "amount"],
      [await deliver(sale, JSON.parse(withSession({ currency: "eur" }))), "amount"],
      [await deliver(sale, JSON.parse(withSession({ id: "cs_test_unknown" }))), "unknown"],
      [await deliver(other, event), "unknown"],
    ] as const;
    const messages = {
      signature: "Invalid payment signature",
      amount: "The payment's amount or currency is not the invoice's",
      unknown: "This payment is not one of this unit's Stripe payments",
    };
    for (const [answer, why] of refusals)
      expect(answer).toMatchObject({ status: 400, body: { errors: [messages[why]] } });
    expect(await state(bought)).toEqual(before);
    // The genuine notification still goes through.
    expect((await post(sale.unitId, genuine, sign(genuine, sale.webhookSecret))).body).toMatchObject({
      changed: true,
      basket_status: "validated",
    });
  });

  it("answers whatever Stripe's signature covers with 200 or 400 and its messages, never a 500", async () => {
    const sale = await stripeSale({ stock: 1, endpoint: false });
    const bought = await checkOut(sale);
    const type = fc.constantFrom(...EVENTS, "payment_intent.created", "", "__proto__", "constructor", "toString");
    const field = fc.constantFrom("id", "amount_total", "currency", "payment_status", "payment_intent", "__proto__");
    const session = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(field, fc.oneof(fc.jsonValue(), fc.constant(bought.sessionId), fc.constant(4500))),
    );
    const event = fc.record(
      {
        id: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        type,
        data: fc.oneof(fc.jsonValue(), fc.record({ object: session })),
      },
      { requiredKeys: [] },
    );
    const payload = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      event.map((e) => JSON.stringify(e)),
    );
    const before = await state(bought);
    await fc.assert(
      fc.asyncProperty(payload, async (body) => {
        const answer = await post(sale.unitId, body, sign(body, sale.webhookSecret));
        expect([200, 400]).toContain(answer.status);
        if (answer.status === 400) expect(answer.body.errors).toEqual([expect.any(String)]);
      }),
      { numRuns: 200, seed: 20_261_123 },
    );
    expect((await state(bought)).basket).toBe(before.basket);
  });

  it("receives an event it does not act on without changing anything, and a failed payment gives the basket back", async () => {
    const sale = await stripeSale({ stock: 5, endpoint: false });
    const bought = await checkOut(sale);
    const other = await deliver(sale, { id: "evt_test_other", object: "event", type: "payment_intent.created" });
    expect(other).toMatchObject({ status: 200, body: { received: true, changed: false, basket_status: null } });

    const session = { ...standIn.session(bought.sessionId), payment_status: "unpaid", status: "complete" };
    const completed = { id: "evt_test_unpaid", object: "event", type: "checkout.session.completed" };
    // Completed but not paid yet (a bank transfer): wait for the async notification.
    expect((await deliver(sale, { ...completed, data: { object: session } })).body.changed).toBe(false);
    const reminders = (await mailsOf("payment_reminder")).length;
    const failed = { id: "evt_test_failed", object: "event", type: "checkout.session.async_payment_failed" };
    expect((await deliver(sale, { ...failed, data: { object: session } })).body).toMatchObject({
      changed: true,
      basket_status: "new",
    });
    expect((await intentOf(bought))?.isError).toBe(true);
    expect(await mailsOf("payment_reminder")).toHaveLength(reminders + 1);
  });

  it("cancels a payment by expiring its session at Stripe, whose expired notification closes it here", async () => {
    const sale = await stripeSale({ stock: 5 });
    const bought = await checkOut(sale);
    const intent = await intentOf(bought);
    if (!intent) throw new Error("no intent");
    await stripeModule.cancel(deps(), { intent, event: sale.event });
    expect(standIn.session(bought.sessionId)).toMatchObject({ status: "expired", url: null });
    await standIn.idle();
    expect(standIn.deliveries.find((d) => d.event.type === "checkout.session.expired")?.status).toBe(200);
    expect((await basketOf(bought))?.status).toBe("new");
    expect(await intentOf(bought)).toMatchObject({ isCancelled: true });
    expect((await invoicesOf(bought))[0]).toMatchObject({ isCancelled: true, isResolved: false });
    // Cancelling again is done already; the expired page takes no payment.
    await stripeModule.cancel(deps(), { intent, event: sale.event });
    const refused = await fetch(bought.checkout.payment_url, { method: "POST", redirect: "manual" });
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain("This Checkout Session has expired.");
    expect(standIn.session(bought.sessionId)?.payment_intent).toBeNull();
    // A paid session cannot be cancelled.
    const paid = await checkOut(sale);
    await pay(paid);
    const paidIntent = await intentOf(paid);
    if (!paidIntent) throw new Error("no intent");
    await expect(stripeModule.cancel(deps(), { intent: paidIntent, event: sale.event })).rejects.toBeInstanceOf(
      PaymentProviderError,
    );
  });

  it("answers 502 when Stripe refuses the unit's key, and gives the basket back", async () => {
    const sale = await stripeSale({ stock: 5, endpoint: false });
    await writeUnitStripeSecrets(ctx, sale.unitId, { secretKey: "sk_live_not_a_test_key", webhookSecret: "whsec_x" });
    const buyer = await readyBuyer(ctx, sale);
    const checkout = await postCheckout(ctx, buyer);
    expect(checkout.status).toBe(502);
    const basket = await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token });
    expect(basket.body.status).toBe("new");
  });

  it("accepts a payment made after the payment term when the articles are still there", async () => {
    const sale = await stripeSale({ stock: 5 });
    const bought = await checkOut(sale, 2);
    expect(await expireUnpaidPayments(ctx.database, minutesFromNow(31))).toContain(bought.basketId);
    expect((await basketOf(bought))?.status).toBe("new");
    const confirmations = (await mailsOf("order_confirmation")).length;
    // Stripe's page was still open: the buyer pays.
    await pay(bought);
    expect((await basketOf(bought))?.status).toBe("validated");
    expect(await invoicesOf(bought)).toEqual([expect.objectContaining({ isResolved: true, isCancelled: false })]);
    expect(await intentOf(bought)).toMatchObject({ isCancelled: false, errorMessage: null });
    const basket = await ctx.call("GET", `/frontend/baskets/${bought.basketId}`, { token: bought.token });
    expect(basket.body.items).toHaveLength(2);
    expect(await mailsOf("order_confirmation")).toHaveLength(confirmations + 1);
    const stocks = await stockCountersAndRows(ctx.database);
    const stock = stocks.find((s) => s.counters.id === sale.article.limit.id);
    expect(stock?.counters).toEqual(stock?.rows);
    expect(stock?.counters.used).toBe(2);
    expect(standIn.refundsOf(String(standIn.session(bought.sessionId)?.payment_intent))).toEqual([]);
  });

  it("pays back a payment made after the payment term when the articles went to someone else", async () => {
    const sale = await stripeSale({ stock: 1, price: 3000 });
    const late = await checkOut(sale);
    await expireUnpaidPayments(ctx.database, minutesFromNow(31));
    const next = await checkOut(sale);
    expect(next.checkout.basket.status).toBe("payment_in_progress");
    const refundMails = (await mailsOf("refund")).length;

    await pay(late);
    const paymentIntent = String(standIn.session(late.sessionId)?.payment_intent);
    expect((await basketOf(late))?.status).toBe("new");
    const [invoice, refund] = await invoicesOf(late);
    expect(invoice).toMatchObject({ amount: 3000, isResolved: true });
    const [stripeRefund] = standIn.refundsOf(paymentIntent);
    expect(stripeRefund).toMatchObject({ amount: 3000, status: "succeeded" });
    expect(refund).toMatchObject({
      amount: -3000,
      relatedInvoiceId: invoice?.id,
      reason: "Payment received after the order was cancelled: paid back in full",
      isResolved: true,
      pspRefundId: stripeRefund?.id,
    });
    const lines = await ctx.database.db
      .select()
      .from(schema.invoiceLines)
      .where(eq(schema.invoiceLines.invoiceId, refund?.id ?? 0))
      .all();
    expect(lines).toEqual([expect.objectContaining({ amount: -3000, isRefund: true })]);
    const mails = await mailsOf("refund");
    expect(mails).toHaveLength(refundMails + 1);
    const mail = await renderMail(
      { database: ctx.database, config: ctx.config },
      { kind: "refund", language: "en", payload: mails.at(-1)?.payload },
    );
    expect(mail.text).toContain("CHF");
    // It says why, and promises nothing about tickets that were never issued.
    expect(mail.text).toContain("arrived after the order had been cancelled");
    expect(mail.text).not.toContain("no longer valid for entry");
    // The other buyer keeps the article; counters still equal the rows.
    expect((await basketOf(next))?.status).toBe("payment_in_progress");
    for (const stock of await stockCountersAndRows(ctx.database)) expect(stock.counters).toEqual(stock.rows);

    // Stripe delivers the notification again: nothing more is paid back or mailed.
    const delivery = standIn.deliveries.find(
      (d) => d.event.type === "checkout.session.completed" && d.payload.includes(late.sessionId),
    );
    if (!delivery) throw new Error("no delivery");
    const again = await post(sale.unitId, delivery.payload, delivery.signature);
    expect(again.body).toMatchObject({ changed: false });
    expect(standIn.refundsOf(paymentIntent)).toHaveLength(1);
    expect(await invoicesOf(late)).toHaveLength(2);
    expect(await mailsOf("refund")).toHaveLength(refundMails + 1);
  });

  it("keeps a late payment's refund pending while Stripe refuses it, and pays it back on the next try", async () => {
    const sale = await stripeSale({ stock: 1, price: 2000 });
    const late = await checkOut(sale);
    await expireUnpaidPayments(ctx.database, minutesFromNow(31));
    await checkOut(sale);
    const refundMails = (await mailsOf("refund")).length;
    // The unit's key now names another Stripe account, which never took this payment.
    await writeUnitStripeSecrets(ctx, sale.unitId, { secretKey: testStripeKey(), webhookSecret: sale.webhookSecret });
    await pay(late);
    const paymentIntent = String(standIn.session(late.sessionId)?.payment_intent);
    const pending = (await invoicesOf(late))[1];
    expect(pending).toMatchObject({ amount: -2000, isResolved: false, isCancelled: false, pspRefundId: null });
    expect(standIn.refundsOf(paymentIntent)).toEqual([]);
    expect(await mailsOf("refund")).toHaveLength(refundMails);
    // Still refused: still pending.
    expect(await payBackLatePayments(deps(), new Date())).toBe(0);

    await writeUnitStripeSecrets(ctx, sale.unitId, { secretKey: sale.secretKey, webhookSecret: sale.webhookSecret });
    // The sweep and a replayed notification at once pay back once.
    const delivery = standIn.deliveries.find((d) => d.payload.includes(late.sessionId));
    if (!delivery) throw new Error("no delivery");
    await Promise.all([
      payBackLatePayments(deps(), new Date()),
      post(sale.unitId, delivery.payload, delivery.signature),
      payBackLatePayments(deps(), new Date()),
    ]);
    expect(standIn.refundsOf(paymentIntent)).toEqual([expect.objectContaining({ amount: 2000 })]);
    expect((await invoicesOf(late))[1]).toMatchObject({
      isResolved: true,
      pspRefundId: standIn.refundsOf(paymentIntent)[0]?.id,
    });
    expect(await mailsOf("refund")).toHaveLength(refundMails + 1);
    expect(await payBackLatePayments(deps(), new Date())).toBe(0);
  });
});
