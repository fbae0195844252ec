// Finding 1 of issue 10: an unpaid online checkout held its stock forever, and a basket had no item cap.
import { and, eq, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hmacHex } from "../../lib/tokens.ts";
import {
  BILLING,
  createBuyer,
  createOnSaleEvent,
  createTestContext,
  submitBilling,
  type TestContext,
  WIRE_DRIVERS,
} from "../../test-support.ts";
import { renderMail } from "../mail/templates/registry.ts";
import { expireUnpaidPayments } from "./expired-payments.ts";

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

describe.each(WIRE_DRIVERS)("payment term and item maximum (%s)", (driver) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(driver);
  });
  afterAll(async () => ctx.close());

  type Buyer = Awaited<ReturnType<typeof createBuyer>>;
  const add = (buyer: Buyer, nodeId: number) =>
    ctx.call("POST", "/frontend/selected-nodes", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, node_id: nodeId },
    });
  async function checkOut(buyer: Buyer, paymentMethod: "online" | "point_of_sale" = "online") {
    expect((await submitBilling(ctx, buyer)).status).toBe(201);
    const checkout = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
      token: buyer.token,
      body: { payment_method: paymentMethod, terms_accepted: true },
    });
    expect(checkout.status).toBe(200);
    return checkout.body;
  }
  const limitUsed = async (limitId: number) =>
    (await ctx.database.db.select().from(schema.nodeLimits).where(eq(schema.nodeLimits.id, limitId)).get())?.used;

  it("cancels an online payment left unpaid past the payment term: stock back for everyone, buyer mailed, a late payment changes nothing", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 5 });
    const hostage = await createBuyer(ctx, event.id, moduleId);
    for (let i = 0; i < 5; i++) expect((await add(hostage, article.node.id)).status).toBe(201);
    const checkout = await checkOut(hostage);
    expect(checkout.basket.status).toBe("payment_in_progress");

    // Everyone else finds the event sold out while the payment is open…
    const other = await createBuyer(ctx, event.id, moduleId);
    expect((await add(other, article.node.id)).status).toBe(409);
    // …for the payment term (30 minutes by default, not the 30-minute basket reservation renewed at checkout)…
    expect(event.paymentTermMinutes).toBe(30);
    expect(await expireUnpaidPayments(ctx.database, minutesFromNow(29))).toEqual([]);
    expect(await limitUsed(article.limit.id)).toBe(5);
    // …and not one minute more.
    expect(await expireUnpaidPayments(ctx.database, minutesFromNow(31))).toEqual([hostage.basketId]);
    expect(await limitUsed(article.limit.id)).toBe(0);
    expect((await add(other, article.node.id)).status).toBe(201);

    const basket = await ctx.call("GET", `/frontend/baskets/${hostage.basketId}`, { token: hostage.token });
    expect(basket.body).toMatchObject({ status: "new", items: [] });
    expect(basket.body.payment_intents[0]).toMatchObject({
      is_cancelled: true,
      error_message: "payment_term_expired",
      invoice: { is_resolved: false, is_cancelled: true },
    });

    // The buyer is told, in their language.
    const mail = await ctx.database.db
      .select()
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.kind, "payment_expired"), eq(schema.mailOutbox.to, BILLING.email)))
      .all();
    expect(mail).toHaveLength(1);
    const context = { database: ctx.database, config: ctx.config };
    const english = await renderMail(context, { kind: "payment_expired", language: "en", payload: mail[0]?.payload });
    expect(english.subject).toBe(
      `Your order for ${event.frontendTitle} was cancelled: the payment was not received in time`,
    );
    expect(english.text).toContain(`Your order ${checkout.basket.unikey}`);
    expect(english.text).toContain("within 30 minutes");
    expect(english.text).toContain(`http://localhost:3000/tickets/${event.frontendPath}/`);
    const french = await renderMail(context, { kind: "payment_expired", language: "fr", payload: mail[0]?.payload });
    expect(french.subject).toContain("a été annulée");

    // The provider's late "paid" finds the invoice cancelled: nothing is validated, the stock stays with `other`.
    const intent = checkout.payment_intent;
    const body = JSON.stringify({ intent_id: intent.id, psp_id: intent.psp_id, outcome: "success" });
    const late = await ctx.call("POST", "/payments/demo/webhook", {
      body,
      headers: { "x-signature": `sha256=${hmacHex(ctx.config.secretKey, body)}` },
    });
    expect(late.body).toMatchObject({ changed: false, basket_status: "new" });
    expect(await limitUsed(article.limit.id)).toBe(1);
    // A second sweep finds nothing more to do.
    expect(await expireUnpaidPayments(ctx.database, minutesFromNow(60))).toEqual([]);
  });

  it("follows the event's own payment term, leaves paid and point-of-sale baskets alone", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 10 });
    await ctx.database.db.update(schema.events).set({ paymentTermMinutes: 10 }).where(eq(schema.events.id, event.id));
    const unpaid = await createBuyer(ctx, event.id, moduleId);
    const paid = await createBuyer(ctx, event.id, moduleId);
    const atDesk = await createBuyer(ctx, event.id, moduleId);
    await ctx.database.db
      .update(schema.events)
      .set({ isPointOfSaleEnabled: true })
      .where(eq(schema.events.id, event.id));
    for (const buyer of [unpaid, paid, atDesk]) expect((await add(buyer, article.node.id)).status).toBe(201);
    await checkOut(unpaid);
    const paidCheckout = await checkOut(paid);
    await checkOut(atDesk, "point_of_sale");
    const intent = paidCheckout.payment_intent;
    const body = JSON.stringify({ intent_id: intent.id, psp_id: intent.psp_id, outcome: "success" });
    await ctx.call("POST", "/payments/demo/webhook", {
      body,
      headers: { "x-signature": `sha256=${hmacHex(ctx.config.secretKey, body)}` },
    });

    expect(await expireUnpaidPayments(ctx.database, minutesFromNow(9))).toEqual([]);
    expect(await expireUnpaidPayments(ctx.database, minutesFromNow(11))).toEqual([unpaid.basketId]);
    const statusOf = async (buyer: Buyer) =>
      (await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token })).body.status;
    expect(await statusOf(paid)).toBe("validated");
    expect(await statusOf(atDesk)).toBe("payment_in_progress");
    expect(await limitUsed(article.limit.id)).toBe(2);
  });

  it("holds at most the event's item maximum per basket (20 by default), even when the adds come at once", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 1_000 });
    expect(event.maxItemsPerBasket).toBe(20);
    const buyer = await createBuyer(ctx, event.id, moduleId);
    const answers = await Promise.all(Array.from({ length: 30 }, () => add(buyer, article.node.id)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(10);
    expect(refused[0]?.body.errors).toEqual([
      "A basket holds at most 20 tickets: pay for this one, then start another order",
    ]);
    expect(await limitUsed(article.limit.id)).toBe(20);
    const french = await ctx.call("POST", "/frontend/selected-nodes", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, node_id: article.node.id },
      headers: { "accept-language": "fr" },
    });
    expect(french.body.errors).toEqual([
      "Un panier contient au plus 20 billets : payez celui-ci, puis commencez une autre commande",
    ]);
  });

  it("lets the organiser set the payment term and the item maximum in the event's settings", async () => {
    const { event, article, moduleId, email, password } = await createOnSaleEvent(ctx, {
      stock: 100,
      status: "draft",
    });
    const login = await ctx.call("POST", "/auth/login", { body: { email, password } });
    const token = login.body.access_token;
    const bad = await ctx.call("PUT", `/events/${event.id}`, {
      token,
      body: { max_items_per_basket: 0, payment_term_minutes: 1 },
    });
    expect(bad.status).toBe(400);
    const saved = await ctx.call("PUT", `/events/${event.id}`, {
      token,
      body: { max_items_per_basket: 2, payment_term_minutes: 45 },
    });
    expect(saved.body).toMatchObject({ max_items_per_basket: 2, payment_term_minutes: 45 });
    await ctx.database.db.update(schema.events).set({ status: "public" }).where(eq(schema.events.id, event.id));
    const buyer = await createBuyer(ctx, event.id, moduleId);
    expect((await add(buyer, article.node.id)).status).toBe(201);
    expect((await add(buyer, article.node.id)).status).toBe(201);
    const third = await add(buyer, article.node.id);
    expect(third.status).toBe(409);
    expect(third.body.errors[0]).toContain("at most 2 tickets");
  });
});
