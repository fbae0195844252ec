// Stripe Checkout end to end against the local stand-in (api/src/stripe-stand-in): the real `stripe` client over
// real HTTP, the stand-in's hosted page, and its signed webhooks posted to the product over HTTP.
// Paying and the notifications here; a payment made after the payment term in stripe-late-payments.test.ts.
import { randomBytes } from "node:crypto";
import { eq, schema } from "@ticketing/db";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BILLING,
  checkOut as postCheckout,
  readyBuyer,
  WIRE_DRIVERS,
  writeUnitStripeSecrets,
} from "../../../test-support.ts";
import { PaymentProviderError } from "./module.ts";
import { EVENTS, useStripeSales } from "./stripe.fixtures.ts";
import { stripeModule } from "./stripe.ts";

describe.each(WIRE_DRIVERS)("Stripe Checkout through the stand-in (%s)", (driver) => {
  const {
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
  } = useStripeSales(driver);

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
});
