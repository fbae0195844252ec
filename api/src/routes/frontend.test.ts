import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hmacHex } from "../lib/tokens.ts";
import { deliverPendingMails } from "../services/mail/delivery.ts";
import { createMailTransport } from "../services/mail/transport.ts";
import {
  BILLING,
  checkOut,
  createBuyer,
  createOnSaleEvent,
  createTestContext,
  DRIVERS,
  readyBuyer,
  type TestContext,
} from "../test-support.ts";

describe.each(DRIVERS)("a purchase through the ticket office (%s)", (driver) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(driver);
  });
  afterAll(async () => ctx.close());

  async function basketReadyToPay(stock = 10) {
    const sale = await createOnSaleEvent(ctx, { stock, price: 4500 });
    return { ...sale, buyer: await readyBuyer(ctx, sale) };
  }

  it("pays through the demo page, resolves the invoice once however often the webhook comes, and mails the tickets", async () => {
    const { buyer } = await basketReadyToPay();
    const checkout = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
      token: buyer.token,
      body: { payment_method: "online", terms_accepted: true },
    });
    expect(checkout.status).toBe(200);
    expect(checkout.body.basket.status).toBe("payment_in_progress");
    expect(checkout.body.invoice.amount).toBe(4500);
    const url = new URL(checkout.body.payment_url);
    const page = await ctx.app.request(url.pathname + url.search);
    expect(await page.text()).toContain("CHF");
    // The buyer presses "Pay": the page posts the signed webhook and sends the buyer back to the ticket office.
    const paid = await ctx.app.request(url.pathname, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `sig=${url.searchParams.get("sig")}&outcome=success`,
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toMatch(/\/tickets\/event-[\w-]+\/payment\/return\/\d+\/success$/);
    const basket = await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token });
    expect(basket.body.status).toBe("validated");
    expect(basket.body.payment_intents[0].invoice.is_resolved).toBe(true);
    // A replayed webhook changes nothing and queues no second mail.
    const intent = basket.body.payment_intents[0];
    const body = JSON.stringify({ intent_id: intent.id, psp_id: intent.psp_id, outcome: "success" });
    const replay = await ctx.call("POST", "/payments/demo/webhook", {
      body,
      headers: { "x-signature": `sha256=${hmacHex(ctx.config.secretKey, body)}` },
    });
    expect(replay.status).toBe(200);
    expect(replay.body.changed).toBe(false);
    const report = await deliverPendingMails(ctx.database, createMailTransport(ctx.config), ctx.config);
    expect(report.sent).toBe(1);
    const mails = readdirSync(join(ctx.dataDir, "mail"));
    expect(mails).toHaveLength(1);
    const eml = readFileSync(join(ctx.dataDir, "mail", mails[0] as string), "utf8");
    expect(eml).toContain("To: ada@example.org");
    expect(eml).toContain("application/pdf");
    // The ticket downloads as a PDF and its code verifies.
    const item = basket.body.items[0];
    const pdf = await ctx.app.request(`/api/v1/frontend/baskets/${buyer.basketId}/tickets/${item.id}`, {
      headers: { authorization: `Bearer ${buyer.token}` },
    });
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe("%PDF");
  });

  it("refuses an unsigned or forged webhook with 400 and leaves the invoice unresolved", async () => {
    const { buyer } = await basketReadyToPay();
    const checkout = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
      token: buyer.token,
      body: { payment_method: "online", terms_accepted: true },
    });
    const intent = checkout.body.payment_intent;
    const body = JSON.stringify({ intent_id: intent.id, psp_id: intent.psp_id, outcome: "success" });
    const forged = await ctx.call("POST", "/payments/demo/webhook", {
      body,
      headers: { "x-signature": `sha256=${hmacHex("wrong-secret", body)}` },
    });
    expect(forged.status).toBe(400);
    const basket = await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token });
    expect(basket.body.status).toBe("payment_in_progress");
  });

  it("gives the basket back to the buyer after a cancelled payment, keeping the stock held", async () => {
    const { buyer } = await basketReadyToPay(1);
    const checkout = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
      token: buyer.token,
      body: { payment_method: "online", terms_accepted: true },
    });
    const url = new URL(checkout.body.payment_url);
    const cancelled = await ctx.app.request(url.pathname, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `sig=${url.searchParams.get("sig")}&outcome=cancel`,
    });
    expect(cancelled.headers.get("location")).toMatch(/\/payment\/return\/\d+\/cancel$/);
    const basket = await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token });
    expect(basket.body.status).toBe("new");
    expect(basket.body.items).toHaveLength(1);
    expect(basket.body.payment_intents[0]).toMatchObject({ is_cancelled: true, is_ongoing: false, payment_url: null });
    const retry = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
      token: buyer.token,
      body: { payment_method: "online", terms_accepted: true },
    });
    expect(retry.status).toBe(200);
  });

  it("validates a free basket at checkout without a payment", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 5, price: 0 });
    const buyer = await readyBuyer(ctx, sale);
    const checkout = await checkOut(ctx, buyer);
    expect(checkout.body).toMatchObject({
      payment_url: null,
      invoice: { amount: 0, is_resolved: true },
      basket: { status: "validated" },
    });
  });

  it("answers 404 for another buyer's basket, on every basket call", async () => {
    const { buyer, event, moduleId } = await basketReadyToPay();
    const stranger = await createBuyer(ctx, event.id, moduleId);
    const calls = [
      ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: stranger.token }),
      ctx.call("POST", "/frontend/selected-nodes", {
        token: stranger.token,
        body: { basket_id: buyer.basketId, node_id: 1 },
      }),
      ctx.call("POST", "/frontend/billing-information", {
        token: stranger.token,
        body: { basket_id: buyer.basketId, ...BILLING },
      }),
      ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
        token: stranger.token,
        body: { payment_method: "online", terms_accepted: true },
      }),
      ctx.call("GET", `/frontend/payment-intents?basket_id=${buyer.basketId}`, { token: stranger.token }),
      ctx.call("GET", `/frontend/baskets/${buyer.basketId}/tickets/1`, { token: stranger.token }),
    ];
    for (const response of await Promise.all(calls)) expect(response.status).toBe(404);
    expect((await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`)).status).toBe(401);
  });

  it("answers bad input with 400 and messages, never 500", async () => {
    const { buyer } = await basketReadyToPay();
    const unknownKey = await ctx.call("POST", "/frontend/billing-information", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, ...BILLING, is_admin: true },
    });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.errors).toContain("Unknown field: is_admin");
    const badEmail = await ctx.call("POST", "/frontend/billing-information", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, ...BILLING, email: "nope" },
    });
    expect(badEmail.body.field_errors).toEqual({ email: "Enter a valid email address" });
    const notJson = await ctx.call("POST", "/frontend/selected-nodes", { token: buyer.token, body: "{oops" });
    expect(notJson).toMatchObject({ status: 400, body: { errors: ["The request body is not valid JSON"] } });
    const terms = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
      token: buyer.token,
      body: { payment_method: "online", terms_accepted: false },
    });
    expect(terms.status).toBe(400);
    expect(terms.body.field_errors).toEqual({ terms_accepted: "You must accept the terms of service" });
    const french = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
      token: buyer.token,
      body: { payment_method: "online", terms_accepted: false },
      headers: { "accept-language": "fr-CH,fr;q=0.9" },
    });
    expect(french.body.errors).toEqual(["Vous devez accepter les conditions générales"]);
    expect((await ctx.call("GET", "/frontend/baskets/abc", { token: buyer.token })).status).toBe(404);
  });

  it("asks for the event of a new basket and the basket of a code list, under either name, in the caller's language", async () => {
    const { buyer, event } = await basketReadyToPay();
    const noEvent = await ctx.call("POST", "/frontend/baskets", { token: buyer.token, body: { testing: false } });
    expect(noEvent).toMatchObject({
      status: 400,
      body: { errors: ["event_id: Required"], field_errors: { event_id: "Required" } },
    });
    const french = await ctx.call("POST", "/frontend/baskets", {
      token: buyer.token,
      body: {},
      headers: { "accept-language": "fr" },
    });
    expect(french).toMatchObject({
      status: 400,
      body: { errors: ["event_id : Obligatoire"], field_errors: { event_id: "Obligatoire" } },
    });
    expect(
      (await ctx.call("POST", "/frontend/baskets", { token: buyer.token, body: { event: event.id } })).status,
    ).toBe(201);
    const noBasket = await ctx.call("GET", "/frontend/selected-promotion-codes", { token: buyer.token });
    expect(noBasket).toMatchObject({
      status: 400,
      body: { errors: ["basket_id: Required"], field_errors: { basket_id: "Required" } },
    });
    const byAlias = await ctx.call("GET", `/frontend/selected-promotion-codes?basket=${buyer.basketId}`, {
      token: buyer.token,
    });
    expect(byAlias).toMatchObject({ status: 200, body: [] });
  });
});
