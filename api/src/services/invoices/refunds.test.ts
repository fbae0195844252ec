// Refunds from the back office (issue 12): whole or chosen articles, through the module that took the money; a
// credit note related to the invoice paid; the stock back; the refunded tickets refused; the buyer told; never more
// than was paid, even with two staff refunding at once.

import { and, eq, isNotNull, schema } from "@ticketing/db";
import { formatMoney } from "@ticketing/shared/money";
import { describe, expect, it } from "vitest";
import {
  addCatalogueElement,
  addToBasket,
  BILLING,
  checkOut,
  createBuyer,
  createOnSaleEvent,
  DRIVERS,
  download,
  eventResourceCreator,
  expectStockCountersMatchRows,
  lastMailTo,
  loginAs,
  markPaidByStaff,
  payOnDemoPage,
  readyBuyer,
  signedInMember,
  signedInUser,
  stockUsed,
  useTestContext,
  writeEventRow,
} from "../../test-support.ts";
import { renderMail } from "../mail/templates/registry.ts";
import { createTicketCode, ticketKeysOf } from "../tickets/ticket-codes.ts";
import { writeInvoice } from "./invoice-writing.ts";

describe.each(DRIVERS)("refunds (%s)", (driver) => {
  const ctx = useTestContext(driver);

  /**
   * An event whose article (25.00, stock 10) has an option (a T-shirt, 5.00, stock 10), and a buyer's order of
   * `count` articles, the first with the option, paid online on the demo page (or at the point of sale, marked paid
   * by staff). Answers the owner's token, the order's items and the paid invoice.
   */
  async function paidOrder(
    options: {
      count?: number;
      price?: number;
      withOption?: boolean;
      method?: "online" | "point_of_sale";
      language?: "en" | "fr";
    } = {},
  ) {
    const { count = 2, price = 2500, withOption = true, method = "online", language = "en" } = options;
    const sale = await createOnSaleEvent(ctx, { stock: 10, price, status: "draft" });
    const staff = await loginAs(ctx, sale.email, sale.password);
    const shirt = await addCatalogueElement(eventResourceCreator(ctx, staff, sale.event.id), {
      parentId: sale.article.node.id,
      category: "option",
      title: "T-shirt",
      price: 500,
      stock: { label: "T-shirts", maximum: 10 },
    });
    await writeEventRow(ctx, sale.event.id, {
      status: "public",
      moderationStatus: "validated",
      isPointOfSaleEnabled: method === "point_of_sale",
    });

    const buyer = await readyBuyer(ctx, sale, { count, firstOptions: withOption ? [shirt.node] : [] });
    const checkout = await checkOut(ctx, buyer, method, language);
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    if (method === "point_of_sale") await markPaidByStaff(ctx, staff, checkout.body.invoice.id);
    else if (checkout.body.payment_url) await payOnDemoPage(ctx, checkout.body.payment_url);
    const basket = (await ctx.call("GET", `/baskets/${buyer.basketId}`, { token: staff })).body;
    expect(basket.status).toBe("validated");
    return {
      sale,
      staff,
      buyer,
      basket,
      items: basket.items as { id: number; price: number; options: { id: number }[] }[],
      invoiceId: checkout.body.invoice.id as number,
      optionLimitUsed: () => stockUsed(ctx, shirt.limit as number),
    };
  }

  const refund = (token: string, basketId: number, body: Record<string, unknown>, language = "en") =>
    ctx.call("POST", `/baskets/${basketId}/refunds`, { token, body, headers: { "accept-language": language } });
  const creditNotes = (basketId: number) =>
    ctx.database.db
      .select()
      .from(schema.invoices)
      .where(and(eq(schema.invoices.basketId, basketId), isNotNull(schema.invoices.relatedInvoiceId)))
      .all();
  const verify = (basketId: number, eventId: number, itemId: number) =>
    ctx.call(
      "GET",
      `/tickets/verify?code=${encodeURIComponent(createTicketCode(ticketKeysOf(ctx.config.ticketSigningKey), { eventId, basketId, itemId }))}`,
    );
  const pageCount = (pdf: ArrayBuffer) =>
    Buffer.from(pdf)
      .toString("latin1")
      .match(/\/Type \/Page\b/g)?.length ?? 0;
  const render = async (mail: { kind: "refund"; language: "en" | "fr"; payload: unknown }) =>
    renderMail({ database: ctx.database, config: ctx.config }, mail);

  it("refunds one of two articles with its option, then the rest: credit notes, stock, tickets, mails", async () => {
    const order = await paidOrder({ language: "fr" });
    const { sale, staff, buyer, items } = order;
    const [first, second] = items as [(typeof items)[0], (typeof items)[0]];
    expect(first.price).toBe(3000);
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(2);
    expect(await order.optionLimitUsed()).toBe(1);

    const partial = await refund(staff, buyer.basketId, { item_ids: [first.id], reason: "  Cannot come  " });
    expect(partial.status, JSON.stringify(partial.body)).toBe(201);
    expect(partial.body).toMatchObject({
      amount: 3000,
      basket_status: "validated",
      invoice: {
        amount: -3000,
        related_invoice_id: order.invoiceId,
        reason: "Cannot come",
        is_resolved: true,
        is_cancelled: false,
      },
    });
    // The credit note bills the article and its option back, each at the price paid.
    const lines = await ctx.database.db
      .select()
      .from(schema.invoiceLines)
      .where(eq(schema.invoiceLines.invoiceId, partial.body.invoice.id))
      .all();
    expect(lines.map((line) => [line.selectedNodeId, line.amount, line.isRefund])).toEqual([
      [first.id, -2500, true],
      [first.options[0]?.id, -500, true],
    ]);
    // The stock is back by one article and one T-shirt; the counters still match the rows.
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(1);
    expect(await order.optionLimitUsed()).toBe(0);
    await expectStockCountersMatchRows(ctx);
    // Staff see the refunded article apart, and the money.
    const detail = (await ctx.call("GET", `/baskets/${buyer.basketId}`, { token: staff })).body;
    expect(detail.items.map((item: { id: number }) => item.id)).toEqual([second.id]);
    expect(detail.refunded_items).toMatchObject([{ id: first.id, price: 3000, options: [{ title: "T-shirt" }] }]);
    expect(detail).toMatchObject({ status: "validated", paid_amount: 5500, refunded_amount: 3000 });
    // The ticket office's view is unchanged: no refund fields.
    const own = (await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token })).body;
    expect(own.refunded_items).toBeUndefined();

    // The refunded ticket no longer admits; the other one still does.
    expect((await verify(buyer.basketId, sale.event.id, first.id)).body.valid).toBe(false);
    expect((await verify(buyer.basketId, sale.event.id, second.id)).body.valid).toBe(true);
    // The buyer's downloads leave the refunded article out.
    const all = await download(ctx, `/frontend/baskets/${buyer.basketId}/tickets`, buyer.token);
    expect(all.status).toBe(200);
    expect(pageCount(await all.arrayBuffer())).toBe(1);
    expect((await download(ctx, `/frontend/baskets/${buyer.basketId}/tickets/${first.id}`, buyer.token)).status).toBe(
      404,
    );
    expect((await download(ctx, `/frontend/baskets/${buyer.basketId}/tickets/${second.id}`, buyer.token)).status).toBe(
      200,
    );

    // The buyer is told in the basket's language (French), with what was refunded and how.
    const mail = await lastMailTo(ctx, BILLING.email);
    expect(mail).toMatchObject({
      kind: "refund",
      language: "fr",
      payload: { basket_id: buyer.basketId, invoice_id: partial.body.invoice.id },
    });
    const french = await render({ kind: "refund", language: "fr", payload: mail?.payload });
    expect(french.subject).toBe(`Votre remboursement pour ${sale.event.frontendTitle}`);
    expect(french.text).toContain("Une partie de votre commande");
    expect(french.text).toContain(`- Entry : ${formatMoney(2500, "fr")}`);
    expect(french.text).toContain(`    T-shirt (${formatMoney(500, "fr")})`);
    expect(french.text).toContain(`Montant remboursé : ${formatMoney(3000, "fr")}`);
    expect(french.text).toContain("prestataire de paiement de démonstration");
    expect(french.text).toMatch(new RegExp(`/tickets/${sale.event.frontendPath}/orders/\\d+\\.\\d+\\.[0-9a-f]{64}`));
    expect(french.html).toContain("<li>Entry");
    // The credit note comes with it, as the buyer would download it.
    expect(french.attachments).toEqual([
      expect.objectContaining({
        filename: expect.stringMatching(/^credit-note-.*\.pdf$/),
        contentType: "application/pdf",
      }),
    ]);
    expect(french.attachments[0]?.content.subarray(0, 4).toString()).toBe("%PDF");
    expect(french.text).toContain("ne sont plus valables");
    const english = await render({ kind: "refund", language: "en", payload: mail?.payload });
    expect(english.text).toContain(`Amount refunded: ${formatMoney(3000, "en")}`);
    // With French titles written (issue 34), the French mail and its credit note read them; the English ones stay.
    await ctx.database.db
      .update(schema.events)
      .set({ frontendTitleFr: "Fête 2030" })
      .where(eq(schema.events.id, sale.event.id));
    await ctx.database.db
      .update(schema.selectedNodes)
      .set({ titleFr: "Entrée" })
      .where(eq(schema.selectedNodes.id, first.id));
    const translated = await render({ kind: "refund", language: "fr", payload: mail?.payload });
    expect(translated.subject).toBe("Votre remboursement pour Fête 2030");
    expect(translated.text).toContain(`- Entrée : ${formatMoney(2500, "fr")}`);
    // No French for the option: its English.
    expect(translated.text).toContain(`    T-shirt (${formatMoney(500, "fr")})`);
    expect((await render({ kind: "refund", language: "en", payload: mail?.payload })).text).toContain(
      `- Entry: ${formatMoney(2500, "en")}`,
    );
    await ctx.database.db.update(schema.events).set({ frontendTitleFr: "" }).where(eq(schema.events.id, sale.event.id));

    // The same article again: refused, nothing written.
    const again = await refund(staff, buyer.basketId, { item_ids: [first.id], reason: "Twice" });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual(["This article has already been refunded, or is being refunded"]);

    // The rest: the basket is refunded, and all that was paid came back.
    const rest = await refund(staff, buyer.basketId, { reason: "Event cancelled" }, "fr");
    expect(rest.status).toBe(201);
    expect(rest.body).toMatchObject({ amount: 2500, basket_status: "refunded", invoice: { amount: -2500 } });
    const notes = await creditNotes(buyer.basketId);
    expect(notes.reduce((sum, note) => sum - note.amount, 0)).toBe(5500);
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(0);
    await expectStockCountersMatchRows(ctx);
    const after = (await ctx.call("GET", `/baskets/${buyer.basketId}`, { token: staff })).body;
    expect(after).toMatchObject({ status: "refunded", items: [], paid_amount: 5500, refunded_amount: 5500 });
    expect(after.refunded_items).toHaveLength(2);
    expect((await verify(buyer.basketId, sale.event.id, second.id)).body.valid).toBe(false);
    expect((await download(ctx, `/frontend/baskets/${buyer.basketId}/tickets`, buyer.token)).status).toBe(409);
    const whole = await render({
      kind: "refund",
      language: "fr",
      payload: (await lastMailTo(ctx, BILLING.email))?.payload,
    });
    expect(whole.text).toContain(
      `Votre commande ${order.basket.unikey} pour ${sale.event.frontendTitle} a été remboursée.`,
    );

    // Nothing is left.
    const empty = await refund(staff, buyer.basketId, { reason: "Once more" }, "fr");
    expect(empty.status).toBe(409);
    expect(empty.body.errors).toEqual(["Il ne reste rien à rembourser dans ce panier"]);
  });

  it("refunds once when two staff refund the same basket at once", async () => {
    const { sale, staff, buyer, invoiceId } = await paidOrder({ count: 3 });
    const { token: colleague } = await signedInMember(ctx, sale.event.unitId, "colleague");
    const answers = await Promise.all([
      refund(staff, buyer.basketId, { reason: "Asked by phone" }),
      refund(colleague, buyer.basketId, { reason: "Asked by mail" }),
      refund(staff, buyer.basketId, { reason: "Double click" }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    const notes = await creditNotes(buyer.basketId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ amount: -8000, relatedInvoiceId: invoiceId, isResolved: true });
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(0);
    await expectStockCountersMatchRows(ctx);
    const mails = await ctx.database.db
      .select()
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.kind, "refund"), eq(schema.mailOutbox.to, BILLING.email)))
      .all();
    expect(mails.filter((mail) => (mail.payload as { basket_id: number }).basket_id === buyer.basketId)).toHaveLength(
      1,
    );
  });

  it("refunds the same article once when it is chosen at once, and another article beside it", async () => {
    const { staff, buyer, items, sale } = await paidOrder({ count: 2 });
    const [first, second] = items as [(typeof items)[0], (typeof items)[0]];
    const answers = await Promise.all([
      refund(staff, buyer.basketId, { item_ids: [first.id], reason: "A" }),
      refund(staff, buyer.basketId, { item_ids: [first.id], reason: "B" }),
      refund(staff, buyer.basketId, { item_ids: [second.id], reason: "C" }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(expect.arrayContaining([201, 201, 409]));
    const notes = await creditNotes(buyer.basketId);
    expect(notes.map((note) => note.amount).sort((a, b) => a - b)).toEqual([-3000, -2500]);
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(0);
    await expectStockCountersMatchRows(ctx);
    expect((await ctx.call("GET", `/baskets/${buyer.basketId}`, { token: staff })).body.status).toBe("refunded");
  });

  it("pays a point-of-sale basket back in cash, without a provider", async () => {
    const { staff, buyer, sale } = await paidOrder({ count: 1, method: "point_of_sale" });
    const done = await refund(staff, buyer.basketId, { reason: "Changed their mind" });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ amount: 3000, basket_status: "refunded" });
    const note = await ctx.database.db
      .select()
      .from(schema.invoices)
      .where(eq(schema.invoices.id, done.body.invoice.id))
      .get();
    expect(note).toMatchObject({ pspRefundId: null, isResolved: true, unitId: sale.event.unitId });
    const mail = await lastMailTo(ctx, BILLING.email);
    const english = await render({ kind: "refund", language: "en", payload: mail?.payload });
    expect(english.subject).toBe(`Your refund for ${sale.event.frontendTitle}`);
    expect(english.text).toContain("The amount is paid back to you in cash at the point of sale.");
  });

  it("refunds a free basket for nothing, without a provider", async () => {
    const { sale, staff, buyer, invoiceId } = await paidOrder({ count: 1, price: 0, withOption: false });
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(1);
    const done = await refund(staff, buyer.basketId, { reason: "Cannot come" });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({
      amount: 0,
      basket_status: "refunded",
      invoice: { amount: 0, related_invoice_id: invoiceId, is_resolved: true },
    });
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(0);
    const mail = await lastMailTo(ctx, BILLING.email);
    const english = await render({ kind: "refund", language: "en", payload: mail?.payload });
    expect(english.text).toContain("Nothing was charged for these articles, so there is nothing to pay back.");
  });

  it("never refunds more than is left of the payment", async () => {
    const { sale, staff, buyer, invoiceId, items } = await paidOrder({ count: 2 });
    // A credit note without lines (a goodwill gesture written elsewhere) already gave 10.00 of the 55.00 back.
    await ctx.database.transaction(function* (tx) {
      yield* writeInvoice(tx, {
        basket: { id: buyer.basketId, testing: false },
        unitId: sale.event.unitId,
        amount: -1000,
        dueDate: null,
        resolvedAt: new Date().toISOString(),
        relatedInvoiceId: invoiceId,
        reason: "Goodwill",
        isRefund: true,
        lines: [],
      });
    });
    const whole = await refund(staff, buyer.basketId, { reason: "Everything" });
    expect(whole.status).toBe(409);
    expect(whole.body.errors).toEqual(["The refund would exceed what is left of the payment"]);
    expect(await creditNotes(buyer.basketId)).toHaveLength(1);
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(2);
    const one = await refund(staff, buyer.basketId, { item_ids: [items[0]?.id], reason: "One" });
    expect(one.status).toBe(201);
    expect(one.body.amount).toBe(3000);
  });

  it("refuses outsiders, unpaid baskets, articles of other baskets and bad bodies; members and superusers may refund", async () => {
    const { sale, staff, buyer, items } = await paidOrder({ count: 2 });
    const { token: outsider } = await signedInUser(ctx, "outsider");
    const hidden = await refund(outsider, buyer.basketId, { reason: "Not mine" });
    expect(hidden.status).toBe(404);
    expect((await refund(outsider, 999_999, { reason: "Nothing" })).status).toBe(404);
    expect((await ctx.call("POST", `/baskets/${buyer.basketId}/refunds`, { body: { reason: "x" } })).status).toBe(401);

    // An unpaid basket of the same event.
    const unpaid = await createBuyer(ctx, sale.event.id, sale.moduleId);
    await addToBasket(ctx, unpaid, sale.article.node.id);
    const notPaid = await refund(staff, unpaid.basketId, { reason: "Not paid" }, "fr");
    expect(notPaid.status).toBe(409);
    expect(notPaid.body.errors).toEqual(["Seul un panier payé peut être remboursé"]);

    // Bodies: a reason is required (spaces are none), ids are articles of this basket, each once.
    const bad = await refund(staff, buyer.basketId, { reason: "   " });
    expect(bad.status).toBe(400);
    expect(bad.body.field_errors.reason).toBeTruthy();
    expect((await refund(staff, buyer.basketId, { reason: "x".repeat(501) })).status).toBe(400);
    expect((await refund(staff, buyer.basketId, { item_ids: [], reason: "Empty" })).status).toBe(400);
    const twice = await refund(staff, buyer.basketId, { item_ids: [items[0]?.id, items[0]?.id], reason: "Twice" });
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual(["Each article may be chosen once"]);
    const foreign = await refund(staff, buyer.basketId, { item_ids: [unpaid.basketId * 1000], reason: "Other" });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual(["Choose articles of this basket that are still held"]);
    const option = await refund(staff, buyer.basketId, { item_ids: [items[0]?.options[0]?.id], reason: "Option" });
    expect(option.status).toBe(400);
    expect(await creditNotes(buyer.basketId)).toHaveLength(0);

    // A member of the unit refunds one article, a superuser the other.
    const member = await signedInMember(ctx, sale.event.unitId);
    const byMember = await refund(member.token, buyer.basketId, {
      item_ids: [items[0]?.id],
      reason: "Member",
    });
    expect(byMember.status).toBe(201);
    const { token: root } = await signedInUser(ctx, "root", { isSuperuser: true });
    const bySuperuser = await refund(root, buyer.basketId, { item_ids: [items[1]?.id], reason: "Superuser" });
    expect(bySuperuser.status).toBe(201);
    expect(bySuperuser.body.basket_status).toBe("refunded");
  });
});
