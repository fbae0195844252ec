// Cancelling an event (docs/decisions/0047): who may, what stops at once (sales, open baskets, the waiting list),
// the refunds through each payment module with the buyer's mail, the orders to refund by hand, a provider's failure
// and its retry with the same credit note, and what the ticket office says.
import { and, eq, isNotNull, schema } from "@ticketing/db";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import {
  BILLING,
  checkOut,
  createOnSaleEvent,
  DRIVERS,
  expectStockCountersMatchRows,
  FRENCH,
  loginAs,
  markPaidByStaff,
  payOnDemoPage,
  readyBuyer,
  signedInMember,
  signedInUser,
  type TestContext,
  testStripeKey,
  useStripeWorld,
  useTestContext,
  writeEventRow,
  writeUnitStripeSecrets,
} from "../../test-support.ts";
import { renderMail } from "../mail/templates/registry.ts";

const MESSAGE = {
  message: "The hall flooded. We are so sorry.",
  message_fr: "La salle est inondée. Nous sommes désolés.",
};

const creditNotesOf = (ctx: TestContext, basketId: number) =>
  ctx.database.db
    .select()
    .from(schema.invoices)
    .where(and(eq(schema.invoices.basketId, basketId), isNotNull(schema.invoices.relatedInvoiceId)))
    .all();
/** The mails of a kind about the baskets given. */
const mailsOf = async (ctx: TestContext, kind: "event_cancelled" | "refund", basketIds: number[]) =>
  (await ctx.database.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.kind, kind)).all()).filter(
    (mail) => basketIds.includes((mail.payload as { basket_id: number }).basket_id),
  );
const basketRow = (ctx: TestContext, basketId: number) =>
  ctx.database.db.select().from(schema.baskets).where(eq(schema.baskets.id, basketId)).get();

describe.each(DRIVERS)("cancelling an event (%s)", (driver) => {
  const ctx = useTestContext(driver);

  async function saleWithOrders() {
    const sale = await createOnSaleEvent(ctx, { stock: 20, price: 3000 });
    await writeEventRow(ctx, sale.event.id, { isPointOfSaleEnabled: true, moderationStatus: "validated" });
    const staff = await loginAs(ctx, sale.email, sale.password);
    const paidOnline = async (email: string, language: "en" | "fr", count = 1) => {
      const buyer = await readyBuyer(ctx, sale, { count, billing: { email } });
      const checkout = await checkOut(ctx, buyer, "online", language);
      expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
      await payOnDemoPage(ctx, checkout.body.payment_url);
      return buyer;
    };
    const english = await paidOnline("anna@example.org", "en", 2);
    const french = await paidOnline("bruno@example.org", "fr");
    const counter = await readyBuyer(ctx, sale, { billing: { email: "carla@example.org" } });
    const posCheckout = await checkOut(ctx, counter, "point_of_sale", "fr");
    await markPaidByStaff(ctx, staff, posCheckout.body.invoice.id);
    // Open baskets: one being filled, one waiting for its payment.
    const filling = await readyBuyer(ctx, sale, { count: 2, billing: null });
    const paying = await readyBuyer(ctx, sale, { billing: { email: "dora@example.org" } });
    const pending = await checkOut(ctx, paying, "online");
    expect(pending.status).toBe(200);
    return { sale, staff, english, french, counter, filling, paying, pendingPayment: pending.body.payment_url };
  }

  it("lets only the unit's owners and superusers cancel, and only once", async () => {
    const { sale, staff } = await saleWithOrders();
    const path = `/events/${sale.event.id}/cancellation`;
    const member = await signedInMember(ctx, sale.event.unitId);
    const outsider = await signedInUser(ctx, "outsider");
    // Everyone who sees the event sees what a cancellation would do.
    const preview = await ctx.call("GET", path, { token: member.token });
    expect(preview.body).toMatchObject({ is_cancelled: false, orders_to_refund: 2, to_refund_by_hand: 1 });
    expect((await ctx.call("GET", path, { token: outsider.token })).status).toBe(404);
    expect((await ctx.call("POST", path, { token: member.token, body: MESSAGE })).status).toBe(403);
    expect((await ctx.call("POST", path, { token: outsider.token, body: MESSAGE })).status).toBe(404);
    const missing = await ctx.call("POST", path, { token: staff, body: { message: " " } });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.field_errors ?? {})).toEqual(expect.arrayContaining(["message", "message_fr"]));
    expect((await ctx.call("POST", path, { token: staff, body: MESSAGE })).status).toBe(201);
    expect((await ctx.call("POST", path, { token: staff, body: MESSAGE })).status).toBe(409);
    // Final: the event stays closed, even for a superuser; it may be archived.
    const moderator = await signedInUser(ctx, "moderator", { isSuperuser: true });
    const reopen = await ctx.call("PUT", `/events/${sale.event.id}`, {
      token: moderator.token,
      body: { status: "public" },
    });
    expect(reopen.status).toBe(409);
    expect(reopen.body.errors).toEqual(["This event is cancelled: it stays closed (it may only be archived)"]);
  });

  it("tells the unit's webhooks: the event closed, each paid order refunded, the order waiting for payment cancelled", async () => {
    const orders = await saleWithOrders();
    const { sale, staff } = orders;
    const hook = await ctx.call("POST", `/units/${sale.event.unitId}/webhooks`, {
      token: staff,
      body: {
        url: "https://hooks.example.org/in",
        events: ["order.refunded", "order.cancelled", "event.status_changed"],
      },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const cancelled = await ctx.call("POST", `/events/${sale.event.id}/cancellation`, { token: staff, body: MESSAGE });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(201);
    expect((await ctx.call("GET", `/events/${sale.event.id}/cancellation`, { token: staff })).body.is_done).toBe(true);

    const deliveries = await ctx.database.db
      .select()
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.endpointId, hook.body.id))
      .all();
    const heard = deliveries.map((row) => {
      const { data } = JSON.parse(row.payload) as { data: Record<string, unknown> };
      return [row.eventType, data.order_id ?? data.status] as const;
    });
    expect(heard.sort()).toEqual(
      (
        [
          ["event.status_changed", "closed"],
          ["order.cancelled", orders.paying.basketId],
          ["order.refunded", orders.english.basketId],
          ["order.refunded", orders.french.basketId],
        ] as const
      )
        .slice()
        .sort(),
    );
  });

  it("stops sales, closes open baskets, refunds paid orders once with a mail in the buyer's language", async () => {
    const orders = await saleWithOrders();
    const { sale, staff } = orders;
    const path = `/events/${sale.event.id}/cancellation`;
    const cancelled = await ctx.call("POST", path, { token: staff, body: MESSAGE });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(201);

    const progress = (await ctx.call("GET", path, { token: staff })).body;
    expect(progress).toMatchObject({
      is_cancelled: true,
      message: MESSAGE.message,
      message_fr: MESSAGE.message_fr,
      orders_to_refund: 2,
      to_refund_by_hand: 1,
      refunded: 2,
      refunded_by_hand: 0,
      failed: 0,
      in_progress: 0,
      refunded_amount: 9000,
      mails_queued: 3,
      is_done: true,
    });
    const byBasket = new Map(progress.baskets.map((row: { basket_id: number }) => [row.basket_id, row]));
    expect(byBasket.get(orders.counter.basketId)).toMatchObject({ way: "by_hand", state: "by_hand", amount: 3000 });

    // Each paid online order: one credit note for what was paid, the basket refunded.
    for (const [buyer, amount] of [
      [orders.english, 6000],
      [orders.french, 3000],
    ] as const) {
      const notes = await creditNotesOf(ctx, buyer.basketId);
      expect(notes.map((note) => [note.amount, note.isResolved])).toEqual([[-amount, true]]);
      expect((await basketRow(ctx, buyer.basketId))?.status).toBe("refunded");
    }
    // The point-of-sale order waits for the organiser: no credit note yet, its buyer told.
    expect(await creditNotesOf(ctx, orders.counter.basketId)).toEqual([]);
    // Open baskets closed, their stock given back; the unpaid payment no longer taken.
    for (const open of [orders.filling, orders.paying])
      expect((await basketRow(ctx, open.basketId))?.status).toBe("new");
    await expectStockCountersMatchRows(ctx);
    const late = await ctx.app.request(new URL(orders.pendingPayment).pathname);
    expect(await late.text()).not.toContain('value="success"');

    // Sales stop at once: the event is closed and takes nothing.
    const buyer = await ctx.call("POST", "/auth/anonymous-login", { body: { active_module_id: sale.moduleId } });
    const basket = await ctx.call("POST", "/frontend/baskets", {
      token: buyer.body.access_token,
      body: { event_id: sale.event.id },
    });
    expect(basket.status).toBeGreaterThanOrEqual(400);

    // The mails: one per buyer, in their language, with the organiser's message and the refund.
    const basketIds = [orders.english, orders.french, orders.counter, orders.filling, orders.paying].map(
      (buyer) => buyer.basketId,
    );
    const mails = await mailsOf(ctx, "event_cancelled", basketIds);
    expect(mails.map((mail) => [mail.to, mail.language]).sort()).toEqual([
      ["anna@example.org", "en"],
      ["bruno@example.org", "fr"],
      ["carla@example.org", "fr"],
    ]);
    const render = (to: string) => {
      const mail = mails.find((row) => row.to === to);
      return renderMail({ database: ctx.database, config: ctx.config }, mail as never);
    };
    const anna = await render("anna@example.org");
    expect(anna.subject).toContain("is cancelled");
    expect(anna.text).toContain(MESSAGE.message);
    expect(anna.text).toMatch(/Amount refunded: CHF\s60\.00/);
    expect(anna.attachments).toHaveLength(1);
    const bruno = await render("bruno@example.org");
    expect(bruno.subject).toContain("est annulé");
    expect(bruno.text).toContain(MESSAGE.message_fr);
    const carla = await render("carla@example.org");
    expect(carla.text).toContain("rembourser");
    expect(carla.text).toContain("30.00");

    // The ticket office says so, in the reader's language.
    const infos = await ctx.call("GET", `/events/public-infos?path=${sale.event.frontendPath}`, { headers: FRENCH });
    expect(infos.body).toMatchObject({
      status: "closed",
      are_registrations_allowed: false,
      cancellation: { message: MESSAGE.message_fr },
    });

    // The organiser pays the point-of-sale order back and marks it: its credit note, its refund mail, once.
    const marked = await ctx.call("POST", `${path}/baskets/${orders.counter.basketId}/refunded-by-hand`, {
      token: staff,
      body: {},
    });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    expect(marked.body).toMatchObject({ refunded_by_hand: 1, refunded_amount: 12000 });
    expect((await creditNotesOf(ctx, orders.counter.basketId)).map((note) => note.amount)).toEqual([-3000]);
    expect((await mailsOf(ctx, "refund", basketIds)).map((mail) => mail.to)).toEqual(["carla@example.org"]);
    const again = await ctx.call("POST", `${path}/baskets/${orders.counter.basketId}/refunded-by-hand`, {
      token: staff,
      body: {},
    });
    expect(again.status).toBe(409);
    await expectStockCountersMatchRows(ctx);
  });
});

describe("cancelling an event paid on Stripe (better-sqlite3)", () => {
  const world = useStripeWorld("better-sqlite3");
  const { standIn, ctx } = world;

  /** An event on Stripe, its unit's account set with a webhook endpoint at the stand-in. */
  async function stripeSale() {
    const sale = await createOnSaleEvent(ctx, { stock: 10, price: 2500 });
    await writeEventRow(ctx, sale.event.id, { onlinePaymentModule: "stripe" });
    const secretKey = testStripeKey();
    const endpoint = await new Stripe(secretKey, {
      ...ctx.config.stripeApi,
      maxNetworkRetries: 0,
    }).webhookEndpoints.create({
      url: `${world.appUrl}/api/v1/payments/stripe/webhook/${sale.event.unitId}`,
      enabled_events: ["checkout.session.completed", "checkout.session.expired"],
    });
    const secrets = { secretKey, webhookSecret: endpoint.secret as string };
    await writeUnitStripeSecrets(ctx, sale.event.unitId, secrets);
    return { sale, secrets, staff: await loginAs(ctx, sale.email, sale.password) };
  }

  it("pays back a payment made on Stripe's page after the cancellation closed its basket", async () => {
    const { sale, staff } = await stripeSale();
    const buyer = await readyBuyer(ctx, sale, { billing: { ...BILLING, email: "late@example.org" } });
    const checkout = await checkOut(ctx, buyer);
    expect(checkout.status).toBe(200);
    const path = `/events/${sale.event.id}/cancellation`;
    expect((await ctx.call("POST", path, { token: staff, body: MESSAGE })).body).toMatchObject({ orders_to_refund: 0 });
    // The buyer still had Stripe's page open, and pays: the payment is late and the event cancelled.
    const paidPage = await fetch(checkout.body.payment_url, { method: "POST", redirect: "manual" });
    expect(paidPage.status).toBe(303);
    await standIn.idle();
    await expect
      .poll(async () =>
        standIn
          .refundsOf(String(standIn.session(checkout.body.payment_intent.psp_id)?.payment_intent))
          .map((refund) => refund.amount),
      )
      .toEqual([2500]);
    expect((await basketRow(ctx, buyer.basketId))?.status).toBe("new");
    await expectStockCountersMatchRows(ctx);
  });

  it("leaves a refused refund failed with its credit note pending, and the retry pays it back once", async () => {
    const { sale, secrets, staff } = await stripeSale();
    const paid: { basketId: number; paymentIntent: string }[] = [];
    for (const email of ["eve@example.org", "fred@example.org"]) {
      const buyer = await readyBuyer(ctx, sale, { billing: { ...BILLING, email } });
      const checkout = await checkOut(ctx, buyer);
      expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
      const paidPage = await fetch(checkout.body.payment_url, { method: "POST", redirect: "manual" });
      expect(paidPage.status).toBe(303);
      expect((await basketRow(ctx, buyer.basketId))?.status).toBe("validated");
      const paymentIntent = String(standIn.session(checkout.body.payment_intent.psp_id)?.payment_intent);
      paid.push({ basketId: buyer.basketId, paymentIntent });
    }
    const path = `/events/${sale.event.id}/cancellation`;
    // The unit's key now opens another account, which knows nothing of these payments: Stripe refuses.
    await writeUnitStripeSecrets(ctx, sale.event.unitId, { ...secrets, secretKey: testStripeKey() });
    expect((await ctx.call("POST", path, { token: staff, body: MESSAGE })).status).toBe(201);
    const failed = (await ctx.call("GET", path, { token: staff })).body;
    expect(failed).toMatchObject({ refunded: 0, failed: 2, mails_queued: 0 });
    const pendingNotes = (await Promise.all(paid.map((order) => creditNotesOf(ctx, order.basketId)))).flat();
    expect(pendingNotes.map((note) => [note.isResolved, note.isCancelled])).toEqual([
      [false, false],
      [false, false],
    ]);

    await writeUnitStripeSecrets(ctx, sale.event.unitId, secrets);
    const retried = await ctx.call("POST", `${path}/retry`, { token: staff, body: {} });
    expect(retried.status).toBe(200);
    const done = (await ctx.call("GET", path, { token: staff })).body;
    expect(done).toMatchObject({ refunded: 2, failed: 0, mails_queued: 2, is_done: true });
    for (const order of paid) {
      expect(standIn.refundsOf(order.paymentIntent).map((refund) => refund.amount)).toEqual([2500]);
      const notes = await creditNotesOf(ctx, order.basketId);
      // The same credit note the failure left, resolved: no second one.
      expect(notes.map((note) => note.id)).toEqual(
        pendingNotes.filter((n) => n.basketId === order.basketId).map((n) => n.id),
      );
      expect(notes[0]).toMatchObject({ isResolved: true, amount: -2500 });
    }
  });
});
