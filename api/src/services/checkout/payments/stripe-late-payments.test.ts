// A Stripe payment made after the payment term, against the local stand-in: accepted while the articles are still
// there, else paid back in full, its refund kept pending while Stripe refuses it and paid back on the next try.
import { eq, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import { stockCountersAndRows, testStripeKey, WIRE_DRIVERS, writeUnitStripeSecrets } from "../../../test-support.ts";
import { renderMail } from "../../mail/templates/registry.ts";
import { expireUnpaidPayments } from "../expired-payments.ts";
import { payBackLatePayments } from "./late-refunds.ts";
import { useStripeSales } from "./stripe.fixtures.ts";

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

describe.each(WIRE_DRIVERS)("Stripe Checkout through the stand-in (%s)", (driver) => {
  const { standIn, ctx, deps, stripeSale, checkOut, pay, post, basketOf, invoicesOf, intentOf, mailsOf } =
    useStripeSales(driver);

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
