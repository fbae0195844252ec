import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { and, eq, isNotNull, schema } from "@ticketing/db";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import {
  BILLING,
  createBuyer,
  createOnSaleEvent,
  DRIVERS,
  loginAs,
  stockCountersAndRows,
  submitBilling,
  testStripeKey,
  useStripeWorld,
  writeEventRow,
  writeUnitStripeSecrets,
} from "../../test-support.ts";
import { renderMail } from "../mail/templates/registry.ts";

describe.each(DRIVERS)("refunds through Stripe (%s)", (driver) => {
  const world = useStripeWorld(driver);
  const { standIn, ctx } = world;

  /** A basket of `count` articles (45.00 each) paid on Stripe's hosted page, its webhook applied. */
  async function paidByCard(count: number) {
    const sale = await createOnSaleEvent(ctx, { stock: 10, price: 4500 });
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
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    for (let index = 0; index < count; index++)
      await ctx.call("POST", "/frontend/selected-nodes", {
        token: buyer.token,
        body: { basket_id: buyer.basketId, node_id: sale.article.node.id },
      });
    expect((await submitBilling(ctx, buyer)).status).toBe(201);
    const checkout = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
      token: buyer.token,
      body: { payment_method: "online", terms_accepted: true },
    });
    expect(checkout.status).toBe(200);
    const paid = await fetch(checkout.body.payment_url, { method: "POST", redirect: "manual" });
    expect(paid.status).toBe(303);
    const staff = await loginAs(ctx, sale.email, sale.password);
    const basket = (await ctx.call("GET", `/baskets/${buyer.basketId}`, { token: staff })).body;
    expect(basket.status).toBe("validated");
    const paymentIntent = String(standIn.session(checkout.body.payment_intent.psp_id)?.payment_intent);
    expect(paymentIntent).toMatch(/^pi_/);
    return { sale, staff, buyer, secrets, paymentIntent, items: basket.items as { id: number }[] };
  }

  const refund = (token: string, basketId: number, body: Record<string, unknown>) =>
    ctx.call("POST", `/baskets/${basketId}/refunds`, { token, body });
  const creditNotes = (basketId: number) =>
    ctx.database.db
      .select()
      .from(schema.invoices)
      .where(and(eq(schema.invoices.basketId, basketId), isNotNull(schema.invoices.relatedInvoiceId)))
      .all();
  const refundMails = async (basketId: number) =>
    (
      await ctx.database.db
        .select()
        .from(schema.mailOutbox)
        .where(and(eq(schema.mailOutbox.kind, "refund"), eq(schema.mailOutbox.to, BILLING.email)))
        .all()
    ).filter((mail) => (mail.payload as { basket_id: number }).basket_id === basketId);
  const held = async (basketId: number) =>
    (
      await ctx.database.db
        .select({ id: schema.selectedNodes.id })
        .from(schema.selectedNodes)
        .where(and(eq(schema.selectedNodes.basketId, basketId), eq(schema.selectedNodes.status, "held")))
        .all()
    ).length;
  const expectStockConsistent = async () => {
    for (const stock of await stockCountersAndRows(ctx.database)) expect(stock.counters).toEqual(stock.rows);
  };

  it("pays one article back to the card, then the rest", async () => {
    const { staff, buyer, paymentIntent, items } = await paidByCard(2);
    const first = await refund(staff, buyer.basketId, { item_ids: [items[0]?.id], reason: "Cannot come" });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ amount: 4500, basket_status: "validated" });
    const [stripeRefund] = standIn.refundsOf(paymentIntent);
    expect(stripeRefund).toMatchObject({ amount: 4500, status: "succeeded" });
    const [note] = await creditNotes(buyer.basketId);
    expect(note).toMatchObject({ amount: -4500, pspRefundId: stripeRefund?.id, isResolved: true });
    const [mail] = await refundMails(buyer.basketId);
    const english = await renderMail(
      { database: ctx.database, config: ctx.config },
      {
        kind: "refund",
        language: "en",
        payload: mail?.payload,
      },
    );
    expect(english.text).toContain("The amount is paid back to the card you paid with.");

    const rest = await refund(staff, buyer.basketId, { reason: "Event cancelled" });
    expect(rest.body).toMatchObject({ amount: 4500, basket_status: "refunded" });
    expect(standIn.refundsOf(paymentIntent).map((r) => r.amount)).toEqual([4500, 4500]);
  });

  it("pays back once when staff refund the same basket at once", async () => {
    const { staff, buyer, paymentIntent, sale } = await paidByCard(2);
    const colleague = await loginAs(ctx, sale.email, sale.password);
    const answers = await Promise.all([
      refund(staff, buyer.basketId, { reason: "Asked by phone" }),
      refund(colleague, buyer.basketId, { reason: "Asked by mail" }),
      refund(staff, buyer.basketId, { reason: "Double click" }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    // The others came while the first one's money was on its way back: its articles were claimed.
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.errors)).toContainEqual([
      "This article has already been refunded, or is being refunded",
    ]);
    expect(standIn.refundsOf(paymentIntent)).toEqual([expect.objectContaining({ amount: 9000 })]);
    expect(await creditNotes(buyer.basketId)).toHaveLength(1);
    expect(await refundMails(buyer.basketId)).toHaveLength(1);
    expect(await held(buyer.basketId)).toBe(0);
    await expectStockConsistent();
  });

  it("changes nothing when Stripe refuses the refund or cannot be reached, and refunds on a later try", async () => {
    const { staff, buyer, paymentIntent, sale, secrets, items } = await paidByCard(2);
    const nothingRefunded = async () => {
      expect(standIn.refundsOf(paymentIntent)).toEqual([]);
      expect(await held(buyer.basketId)).toBe(2);
      expect(await refundMails(buyer.basketId)).toHaveLength(0);
      // The credit note stays, numbered and cancelled; its lines are gone, so its articles may be refunded again.
      for (const note of await creditNotes(buyer.basketId)) expect(note).toMatchObject({ isCancelled: true });
      const lines = await ctx.database.db
        .select()
        .from(schema.invoiceLines)
        .where(eq(schema.invoiceLines.isRefund, true))
        .all();
      expect(lines.filter((line) => items.some((item) => item.id === line.selectedNodeId))).toEqual([]);
      await expectStockConsistent();
    };

    // The unit's key now opens another Stripe account, which knows nothing of this payment: Stripe refuses.
    await writeUnitStripeSecrets(ctx, sale.event.unitId, { ...secrets, secretKey: testStripeKey() });
    const refused = await refund(staff, buyer.basketId, { reason: "Cannot come" });
    expect(refused.status).toBe(502);
    expect(refused.body.errors).toEqual(["Refund failed"]);
    await nothingRefunded();

    // Stripe cannot be reached at all.
    await writeUnitStripeSecrets(ctx, sale.event.unitId, secrets);
    const stripeApi = ctx.config.stripeApi;
    const closed = serve({ fetch: () => new Response(), port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => closed.once("listening", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    ctx.config.stripeApi = { host: "127.0.0.1", port: closedPort, protocol: "http" };
    try {
      const unreachable = await ctx.call("POST", `/baskets/${buyer.basketId}/refunds`, {
        token: staff,
        body: { reason: "Cannot come" },
        headers: { "accept-language": "fr" },
      });
      expect(unreachable.status).toBe(502);
      expect(unreachable.body.errors).toEqual(["Le remboursement a échoué"]);
    } finally {
      ctx.config.stripeApi = stripeApi;
    }
    await nothingRefunded();
    expect(await creditNotes(buyer.basketId)).toHaveLength(2);

    // Stripe is back: the refund goes through, once.
    const retried = await refund(staff, buyer.basketId, { reason: "Cannot come" });
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ amount: 9000, basket_status: "refunded" });
    expect(standIn.refundsOf(paymentIntent)).toEqual([expect.objectContaining({ amount: 9000 })]);
    expect(await refundMails(buyer.basketId)).toHaveLength(1);
    const detail = (await ctx.call("GET", `/baskets/${buyer.basketId}`, { token: staff })).body;
    expect(detail).toMatchObject({ paid_amount: 9000, refunded_amount: 9000, status: "refunded" });
  });
});
