// The demo payment page (docs/design.md §4 "Payments"): what the buyer is sent to, and told, is where the payment
// really stands — not the button pressed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expireUnpaidPayments } from "../services/checkout/expired-payments.ts";
import {
  createBuyer,
  createOnSaleEvent,
  createTestContext,
  readyBuyer,
  submitBilling,
  type TestContext,
  WIRE_DRIVERS,
} from "../test-support.ts";

describe.each(WIRE_DRIVERS)("the demo payment page (%s)", (driver) => {
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
    // The page's answers lead to paths of the origin it was opened on (docs/decisions/0030).
    const office = `/tickets/${sale.event.frontendPath}`;
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
    expect(paid.headers.get("location")).toBe(`${url.pathname}${url.search}`);
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
    expect(paid.headers.get("location")).toBe(`${url.pathname}${url.search}`);
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

// Issue 28, finding 1: on http://127.0.0.1:3000 while PUBLIC_URL is http://localhost:3000, "Pay now" led to the
// payment page on localhost, which the ticket office's `form-action` refused to follow: nothing happened.
describe("the demo payment page on the origin the buyer is on (docs/decisions/0030)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(); // PUBLIC_URL http://localhost:3000
  });
  afterAll(async () => ctx.close());

  /** A buyer's online checkout, sent to `url` (the host it reached) with the browser's `origin`. */
  async function checkOutAt(url: string, origin?: string) {
    const sale = await createOnSaleEvent(ctx, { stock: 5, price: 4500 });
    const buyer = await readyBuyer(ctx, sale);
    const answer = await ctx.app.request(`${url}/api/v1/frontend/baskets/${buyer.basketId}/checkout`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${buyer.token}`,
        "content-type": "application/json",
        ...(origin ? { origin } : {}),
      },
      body: JSON.stringify({ payment_method: "online", terms_accepted: true }),
    });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    return { paymentUrl: new URL(body.payment_url), sale, intentId: body.payment_intent.id as number };
  }

  it("is addressed to the buyer's own origin, and its answer leads back there", async () => {
    const { paymentUrl, sale, intentId } = await checkOutAt("http://127.0.0.1:3000", "http://127.0.0.1:3000");
    expect(paymentUrl.origin).toBe("http://127.0.0.1:3000");
    expect(paymentUrl.pathname).toBe(`/api/v1/payments/demo/pay/${intentId}`);
    // The page opens there, and paying leads to the ticket office of that origin (a path: `form-action 'self'`).
    const page = await ctx.app.request(paymentUrl.href);
    expect(page.status).toBe(200);
    const paid = await ctx.app.request(paymentUrl.href.replace(/\?.*$/, ""), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: paymentUrl.origin },
      body: `sig=${paymentUrl.searchParams.get("sig")}&outcome=success`,
    });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get("location") ?? "", paymentUrl);
    expect(back.href).toBe(
      `http://127.0.0.1:3000/tickets/${sale.event.frontendPath}/payment/return/${intentId}/success`,
    );
  });

  it("is on PUBLIC_URL when the browser is there, whatever Host a proxy in front sent", async () => {
    const { paymentUrl } = await checkOutAt("http://app-7:3000", "http://localhost:3000");
    expect(paymentUrl.origin).toBe("http://localhost:3000");
  });

  it("is on the page's https origin when a proxy ended TLS in front of the product", async () => {
    const { paymentUrl } = await checkOutAt("http://www.localhost:3000", "https://www.localhost:3000");
    expect(paymentUrl.origin).toBe("https://www.localhost:3000");
  });

  it.each([
    ["another site's", "https://evil.example"],
    ["another port's", "http://127.0.0.1:4000"],
    ["no", undefined],
  ])("is on PUBLIC_URL for a call with %s origin", async (_, origin) => {
    const { paymentUrl } = await checkOutAt("http://127.0.0.1:3000", origin);
    expect(paymentUrl.origin).toBe("http://localhost:3000");
  });
});
