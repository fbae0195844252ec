// The payment reminder (docs/specification.md §2.2 communication "payment-reminder"): the mail a buyer gets when the
// order waits for its payment — paid at a point of sale, or after an online payment failed — with the reference and the
// way back; its texts are the organiser's when set, like the confirmation's.
import { and, eq, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hmacHex } from "../../lib/tokens.ts";
import {
  BILLING,
  checkOut,
  createOnSaleEvent,
  createTestContext,
  readyBuyer,
  type TestContext,
  writeCommunicationRow,
  writeEventRow,
} from "../../test-support.ts";
import { renderMail } from "../mail/templates/registry.ts";

describe("the payment reminder", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  /** A buyer of the event's article with billing information, checked out with `method` in `language`. */
  async function checkedOut(method: "online" | "point_of_sale", language: "en" | "fr" = "en") {
    const sale = await createOnSaleEvent(ctx, { stock: 10, price: 3000 });
    await writeEventRow(ctx, sale.event.id, { isPointOfSaleEnabled: true });
    const buyer = await readyBuyer(ctx, sale);
    const checkout = await checkOut(ctx, buyer, method, language);
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    return { sale, buyer, checkout: checkout.body };
  }

  const remindersOf = async (basketId: number) => {
    const mails = await ctx.database.db
      .select()
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.kind, "payment_reminder"), eq(schema.mailOutbox.to, BILLING.email)))
      .all();
    return mails.filter((mail) => mail.payload.basket_id === basketId);
  };

  const render = (mail: { language: "en" | "fr"; payload: unknown }) =>
    renderMail({ database: ctx.database, config: ctx.config }, { kind: "payment_reminder", ...mail });

  it("is sent at once for an order paid at a point of sale, with its reference and the way back, in the buyer's language", async () => {
    const { sale, buyer, checkout } = await checkedOut("point_of_sale", "fr");
    const [reminder, ...more] = await remindersOf(buyer.basketId);
    expect(more).toEqual([]);
    expect(reminder?.language).toBe("fr");
    const mail = await render(reminder as NonNullable<typeof reminder>);
    expect(mail.subject).toBe(`Votre commande pour ${sale.event.frontendTitle} attend son paiement`);
    expect(mail.text).toContain(checkout.basket.unikey);
    // The page with the reference and the places to pay.
    expect(mail.text).toContain(
      `Où et comment payer : http://localhost:3000/tickets/${sale.event.frontendPath}/payment/pointofsale/${checkout.payment_intent.id}`,
    );
  });

  it("is sent when an online payment fails, not when the buyer cancels it", async () => {
    const failed = await checkedOut("online");
    const cancelled = await checkedOut("online");
    for (const [order, outcome] of [
      [failed, "error"],
      [cancelled, "cancel"],
    ] as const) {
      expect(await remindersOf(order.buyer.basketId)).toEqual([]);
      const intent = order.checkout.payment_intent;
      const body = JSON.stringify({ intent_id: intent.id, psp_id: intent.psp_id, outcome });
      const verdict = await ctx.call("POST", "/payments/demo/webhook", {
        body,
        headers: { "x-signature": `sha256=${hmacHex(ctx.config.secretKey, body)}` },
      });
      expect(verdict.body.changed).toBe(true);
    }
    const [reminder, ...more] = await remindersOf(failed.buyer.basketId);
    expect(more).toEqual([]);
    expect(await remindersOf(cancelled.buyer.basketId)).toEqual([]);
    // Back to the payment step, to pay again.
    const mail = await render(reminder as NonNullable<typeof reminder>);
    expect(mail.text).toContain(
      `Complete the payment: http://localhost:3000/tickets/${failed.sale.event.frontendPath}/checkout/payment-method`,
    );
  });

  it("says what the organiser wrote, with the placeholders filled in", async () => {
    const { sale, buyer, checkout } = await checkedOut("point_of_sale");
    await writeCommunicationRow(ctx, sale.event.id, {
      paymentReminderSubjectEn: "Pay {{reference}} at the desk",
      paymentReminderBodyEn: "Dear {{name}}, bring {{reference}} to the {{event}} desk.",
    });
    const [reminder] = await remindersOf(buyer.basketId);
    const mail = await render(reminder as NonNullable<typeof reminder>);
    expect(mail.subject).toBe(`Pay ${checkout.basket.unikey} at the desk`);
    expect(mail.text).toContain(`bring ${checkout.basket.unikey} to the ${sale.event.frontendTitle} desk.`);
  });
});
