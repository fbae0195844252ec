// The demo payment page (DESIGN.md 4 "Payments"): what the buyer is sent to, and told, is where the payment
// really stands — not the button pressed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expireUnpaidPayments } from "../services/checkout.ts";
import {
  createBuyer,
  createOnSaleEvent,
  createTestContext,
  DRIVERS,
  submitBilling,
  type TestContext,
} from "../test-support.ts";

describe.each(DRIVERS)("the demo payment page (%s)", (driver) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(driver);
  });
  afterAll(async () => ctx.close());

  /** A basket checked out online: the address of its payment page, and the ticket office's. */
  async function paymentPage(language = "en") {
    const sale = await createOnSaleEvent(ctx, { stock: 5, price: 4500 });
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    const token = buyer.token;
    await ctx.call("POST", "/frontend/selected-nodes", {
      token,
      body: { basket_id: buyer.basketId, node_id: sale.article.node.id },
    });
    await submitBilling(ctx, buyer);
    const checkout = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
      token,
      body: { payment_method: "online", terms_accepted: true },
      headers: { "accept-language": language },
    });
    expect(checkout.status).toBe(200);
    const url = new URL(checkout.body.payment_url);
    const office = `http://localhost:3000/tickets/${sale.event.frontendPath}`;
    const press = (outcome: string) =>
      ctx.app.request(url.pathname, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `sig=${url.searchParams.get("sig")}&outcome=${outcome}`,
      });
    const page = async () => (await ctx.app.request(url.pathname + url.search)).text();
    const basket = async () => (await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token })).body;
    return { url, office, press, page, basket, intentId: checkout.body.payment_intent.id as number };
  }

  it("pays an open payment and sends the buyer to the success page", async () => {
    const { press, office, intentId, basket } = await paymentPage();
    const paid = await press("success");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`${office}/payment/return/${intentId}/success`);
    expect((await basket()).status).toBe("validated");
  });

  it("does not send the buyer to success when the payment was cancelled meanwhile: the page says so", async () => {
    const { press, page, office, url, basket } = await paymentPage();
    expect((await press("cancel")).headers.get("location")).toMatch(/\/payment\/return\/\d+\/cancel$/);
    // "Pay" from a page left open in another tab, or the back button: nothing is paid…
    const paid = await press("success");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`${url.origin}${url.pathname}${url.search}`);
    expect((await basket()).status).toBe("new");
    // …and the page shows the real outcome, with the way back to the payment method.
    const text = await page();
    expect(text).toContain("This payment was cancelled: nothing was charged.");
    expect(text).toContain(`<a href="${office}/checkout/payment-method">Choose how to pay again</a>`);
    expect(text).not.toContain("<form");
  });

  it("says a payment expired when its term ran out, in the buyer's language, and links back to the basket", async () => {
    const { press, page, office, url, basket } = await paymentPage("fr");
    expect(await expireUnpaidPayments(ctx.database, new Date(Date.now() + 31 * 60_000))).toHaveLength(1);
    const paid = await press("success");
    expect(paid.headers.get("location")).toBe(`${url.origin}${url.pathname}${url.search}`);
    expect((await basket()).status).toBe("new");
    const text = await page();
    expect(text).toContain("Ce paiement a expiré : il n&#39;a pas été effectué à temps");
    expect(text).toContain(`<a href="${office}/buy">Retour à la billetterie</a>`);
  });

  it("says a payment failed when the provider reported an error before", async () => {
    const { press, page, office } = await paymentPage();
    expect((await press("error")).headers.get("location")).toMatch(/\/payment\/return\/\d+\/error$/);
    expect((await press("cancel")).headers.get("location")).toContain("/api/v1/payments/demo/pay/");
    const text = await page();
    expect(text).toContain("This payment failed: nothing was charged.");
    expect(text).toContain(`<a href="${office}/checkout/payment-method">`);
  });

  it("sends a second press of pay to the success page: the payment is received", async () => {
    const { press, page, office, intentId } = await paymentPage();
    await press("success");
    expect((await press("success")).headers.get("location")).toBe(`${office}/payment/return/${intentId}/success`);
    expect((await press("cancel")).headers.get("location")).toBe(`${office}/payment/return/${intentId}/success`);
    const text = await page();
    expect(text).toContain("This payment has been received.");
    expect(text).toContain(`<a href="${office}/payment/return/${intentId}/success">Back to the ticket office</a>`);
  });
});
