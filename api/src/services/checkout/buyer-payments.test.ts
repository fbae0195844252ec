// The buyer cancels an ongoing payment (`POST /frontend/payment-intents/:id/cancel`, docs/specification.md §8
// "Failed to cancel an ongoing payment"): at the provider first, then here; the basket goes back to the buyer. A
// provider that cannot cancel it changes nothing here.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, run, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addToBasket,
  checkOut,
  createBuyer,
  createOnSaleEvent,
  FRENCH,
  loginAs,
  payOnDemoPage,
  stockUsed,
  submitBilling,
  useTestContext,
  WIRE_DRIVERS,
} from "../../test-support.ts";

const STRIPE = {
  secret_key: "sk_test_51Hx9mQ2eZvKYlo2C0a1b2c3d4e5f6g7h8i9j0kLmNoPqRsTuVwXyZ",
  webhook_secret: "whsec_Zq8Yk3Lm5Np7Rt9Vx1Bz3Dc5Fg7Hj9Kl",
};

/**
 * What Stripe answers about Checkout Sessions, as far as cancelling goes: `expire` closes an open session, and
 * refuses one that was paid (`complete`), which `retrieve` then shows.
 */
function stripeSessions(sessions: Map<string, "open" | "complete" | "expired">): Server {
  return createServer((request, response) => {
    const [, , , , id, action] = (request.url ?? "").split("?")[0]?.split("/") ?? [];
    const status = id ? sessions.get(id) : undefined;
    response.setHeader("content-type", "application/json");
    const session = () => ({ id, object: "checkout.session", status, payment_status: "unpaid" });
    if (!status || !request.url?.startsWith("/v1/checkout/sessions/")) {
      response.statusCode = 404;
      return response.end(JSON.stringify({ error: { type: "invalid_request_error", message: "No such session" } }));
    }
    if (request.method === "POST" && action === "expire") {
      if (status !== "open") {
        response.statusCode = 400;
        const message = `Only Checkout Sessions with a status in ["open"] can be expired. This session has status ${status}.`;
        return response.end(JSON.stringify({ error: { type: "invalid_request_error", message } }));
      }
      sessions.set(id as string, "expired");
      return response.end(JSON.stringify({ ...session(), status: "expired" }));
    }
    return response.end(JSON.stringify(session()));
  });
}

const listening = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
const closed = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe.each(WIRE_DRIVERS)("the buyer cancels an ongoing payment (%s)", (driver) => {
  const ctx = useTestContext(driver);
  let sale: Awaited<ReturnType<typeof createOnSaleEvent>>;
  beforeAll(async () => {
    sale = await createOnSaleEvent(ctx, { stock: 10, price: 3000 });
    await ctx.database.transaction(function* (tx) {
      yield* run(
        tx.update(schema.events).set({ isPointOfSaleEnabled: true }).where(eq(schema.events.id, sale.event.id)).run(),
      );
    });
  });

  /** A buyer with one article, checked out: their basket and the payment intent. */
  async function ordered(method: "online" | "point_of_sale" = "online") {
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    await addToBasket(ctx, buyer, sale.article.node.id);
    await submitBilling(ctx, buyer);
    const checkout = await checkOut(ctx, buyer, method);
    expect(checkout.status).toBe(200);
    const intentId = checkout.body.payment_intent.id as number;
    const cancel = (token = buyer.token, headers?: Record<string, string>) =>
      ctx.call("POST", `/frontend/payment-intents/${intentId}/cancel`, { token, body: {}, headers });
    const basket = async () =>
      (await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token })).body;
    return { ...buyer, intentId, paymentUrl: checkout.body.payment_url as string | null, cancel, basket };
  }

  it("cancels the buyer's online payment: the basket is theirs again, its articles still held", async () => {
    const order = await ordered();
    const used = await stockUsed(ctx, sale.article.limit.id);
    const cancelled = await order.cancel();
    expect(cancelled).toMatchObject({ status: 200, body: { id: order.basketId, status: "new" } });
    expect(cancelled.body.items).toHaveLength(1);
    const intent = cancelled.body.payment_intents.find((row: { id: number }) => row.id === order.intentId);
    expect(intent).toMatchObject({ is_cancelled: true, is_ongoing: false, payment_url: null });
    expect(intent.invoice).toMatchObject({ is_cancelled: true, is_resolved: false });
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(used);
    // The demo page no longer takes it.
    await payOnDemoPage(ctx, order.paymentUrl as string);
    expect((await order.basket()).status).toBe("new");
    // A second payment can start.
    const again = await checkOut(ctx, order);
    expect(again).toMatchObject({ status: 200, body: { basket: { status: "payment_in_progress" } } });
  });

  it("refuses a payment no longer ongoing: cancelled, or paid", async () => {
    const order = await ordered();
    expect((await order.cancel()).status).toBe(200);
    expect(await order.cancel()).toMatchObject({
      status: 409,
      body: { errors: ["This payment is no longer ongoing"] },
    });
    expect((await order.cancel(order.token, FRENCH)).body.errors).toEqual(["Ce paiement n'est plus en cours"]);
    const paid = await ordered();
    await payOnDemoPage(ctx, paid.paymentUrl as string);
    expect((await paid.basket()).status).toBe("validated");
    expect(await paid.cancel()).toMatchObject({ status: 409, body: { errors: ["This payment is no longer ongoing"] } });
    expect((await paid.basket()).status).toBe("validated");
  });

  it("is the buyer's own: another buyer, a staff member and nobody are refused, and nothing changes", async () => {
    const order = await ordered();
    const other = await createBuyer(ctx, sale.event.id, sale.moduleId);
    expect(await order.cancel(other.token)).toMatchObject({ status: 404, body: { errors: ["Resource not found"] } });
    const staff = await loginAs(ctx, sale.email, sale.password);
    expect((await order.cancel(staff)).status).toBe(401);
    expect((await ctx.call("POST", `/frontend/payment-intents/${order.intentId}/cancel`, { body: {} })).status).toBe(
      401,
    );
    expect(
      (await ctx.call("POST", "/frontend/payment-intents/999999/cancel", { token: order.token, body: {} })).status,
    ).toBe(404);
    expect(
      (await ctx.call("POST", "/frontend/payment-intents/abc/cancel", { token: order.token, body: {} })).status,
    ).toBe(404);
    expect(
      (
        await ctx.call("POST", `/frontend/payment-intents/${order.intentId}/cancel`, {
          token: order.token,
          body: { x: 1 },
        })
      ).status,
    ).toBe(400);
    const basket = await order.basket();
    expect(basket.status).toBe("payment_in_progress");
    expect(basket.payment_intents[0]).toMatchObject({ id: order.intentId, is_ongoing: true });
  });

  it("cancels a payment at a point of sale, so the buyer may pay another way", async () => {
    const order = await ordered("point_of_sale");
    expect(await order.cancel()).toMatchObject({ status: 200, body: { status: "new" } });
    const invoiceId = (await order.basket()).payment_intents[0].invoice.id;
    // Staff marking it paid afterwards changes nothing: the cancelled invoice stays unpaid.
    const staff = await loginAs(ctx, sale.email, sale.password);
    const marked = await ctx.call("POST", `/invoices/${invoiceId}/mark-paid`, { token: staff, body: {} });
    expect(marked.body).toMatchObject({ changed: false, basket_status: "new" });
    expect((await order.basket()).status).toBe("new");
  });

  describe("through Stripe", () => {
    const sessions = new Map<string, "open" | "complete" | "expired">();
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = stripeSessions(sessions);
      port = await listening(server);
      ctx.config.stripeApi = { host: "127.0.0.1", port, protocol: "http" };
      const owner = await loginAs(ctx, sale.email, sale.password);
      const unitId = sale.organiser.personalUnitId as number;
      expect((await ctx.call("PUT", `/units/${unitId}/stripe`, { token: owner, body: STRIPE })).status).toBe(200);
    });
    afterAll(async () => {
      if (server.listening) await closed(server);
    });

    /** An ongoing payment as a Stripe checkout leaves it: the intent names its Checkout Session. */
    async function stripeOrder(status: "open" | "complete") {
      const order = await ordered();
      const pspId = `cs_test_${order.intentId}_${driver.replace(/\W/g, "")}`;
      sessions.set(pspId, status);
      await ctx.database.transaction(function* (tx) {
        yield* run(
          tx
            .update(schema.paymentIntents)
            .set({ moduleKey: "stripe", pspId, hostedUrl: `https://checkout.stripe.com/c/pay/${pspId}` })
            .where(eq(schema.paymentIntents.id, order.intentId))
            .run(),
        );
      });
      return { ...order, pspId };
    }

    it("expires the Checkout Session, then cancels the payment here", async () => {
      const order = await stripeOrder("open");
      expect(await order.cancel()).toMatchObject({ status: 200, body: { status: "new" } });
      expect(sessions.get(order.pspId)).toBe("expired");
    });

    it("says it failed when the buyer paid meanwhile, and changes nothing", async () => {
      const order = await stripeOrder("complete");
      expect(await order.cancel()).toMatchObject({
        status: 409,
        body: { errors: ["Failed to cancel an ongoing payment."] },
      });
      expect((await order.cancel(order.token, FRENCH)).body.errors).toEqual([
        "Échec de l'annulation d'un paiement en cours.",
      ]);
      const basket = await order.basket();
      expect(basket.status).toBe("payment_in_progress");
      expect(basket.payment_intents[0]).toMatchObject({ id: order.intentId, is_ongoing: true, is_cancelled: false });
    });

    it("says it failed when Stripe cannot be reached, and changes nothing", async () => {
      const order = await stripeOrder("open");
      await closed(server);
      expect(await order.cancel()).toMatchObject({
        status: 409,
        body: { errors: ["Failed to cancel an ongoing payment."] },
      });
      const basket = await order.basket();
      expect(basket.status).toBe("payment_in_progress");
      expect(basket.payment_intents[0]).toMatchObject({ id: order.intentId, is_ongoing: true });
    });
  });
});
