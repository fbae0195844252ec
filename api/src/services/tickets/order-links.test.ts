import { eq, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import { basketIdOfOrderToken, ORDER_LINK_DAYS_AFTER_EVENT, orderToken } from "../../lib/order-tokens.ts";
import {
  checkOut,
  createOnSaleEvent,
  DRIVERS,
  download,
  FRENCH,
  lastMailTo,
  payOnDemoPage,
  readyBuyer,
  type TestContext,
  useTestContext,
} from "../../test-support.ts";
import { renderMail } from "../mail/templates/registry.ts";

/** A buyer who paid for two tickets online; the order link of their confirmation mail, as the mail renders it. */
async function paidOrder(ctx: TestContext, email: string) {
  const sale = await createOnSaleEvent(ctx, { stock: 10 });
  const buyer = await readyBuyer(ctx, sale, { count: 2, billing: { email } });
  const ordered = await checkOut(ctx, buyer);
  await payOnDemoPage(ctx, ordered.body.payment_url);
  const mail = await lastMailTo(ctx, email);
  if (!mail) throw new Error("no confirmation mail");
  const rendered = await renderMail({ database: ctx.database, config: ctx.config }, mail);
  const link = /https?:\/\/\S+\/orders\/\S+/.exec(rendered.text)?.[0] ?? "";
  return { sale, buyer, link, token: link.split("/orders/")[1] ?? "", html: rendered.html };
}

describe.each(DRIVERS)("order links (%s)", (driver) => {
  const ctx = useTestContext(driver);
  const order = (token: string) => ctx.call("GET", `/frontend/orders/${token}`);

  it("shows the order in the reader's language: the event's and the articles' titles as added, English where no French was written (issue 34)", async () => {
    const { sale, buyer, token } = await paidOrder(ctx, `french-${driver}@example.org`);
    const { events, selectedNodes } = schema;
    await ctx.database.db.update(events).set({ frontendTitleFr: "Fête 2030" }).where(eq(events.id, sale.event.id));
    const [first] = await ctx.database.db
      .select({ id: selectedNodes.id })
      .from(selectedNodes)
      .where(eq(selectedNodes.basketId, buyer.basketId))
      .orderBy(selectedNodes.id);
    await ctx.database.db
      .update(selectedNodes)
      .set({ titleFr: "Entrée" })
      .where(eq(selectedNodes.id, first?.id as number));
    const french = await ctx.call("GET", `/frontend/orders/${token}`, { headers: FRENCH });
    expect(french.status).toBe(200);
    expect(french.body.event.frontend_title).toBe("Fête 2030");
    expect(french.body.basket.items.map((item: { title: string }) => item.title)).toEqual(["Entrée", "Entry"]);
    const english = await order(token);
    expect(english.body.event.frontend_title).toBe(sale.event.frontendTitle);
    expect(english.body.basket.items.map((item: { title: string }) => item.title)).toEqual(["Entry", "Entry"]);
  });

  it("puts a signed link to the order's page in the confirmation mail; it opens the order without a login", async () => {
    const { sale, buyer, link, token, html } = await paidOrder(ctx, `link-${driver}@example.org`);
    expect(link).toMatch(
      new RegExp(
        `^http://localhost:3000/tickets/${sale.event.frontendPath}/orders/${buyer.basketId}\\.\\d+\\.[0-9a-f]{64}$`,
      ),
    );
    expect(html).toContain(`href="${link}"`);
    const shown = await order(token);
    expect(shown.status).toBe(200);
    expect(shown.body.basket).toMatchObject({ id: buyer.basketId, status: "validated", total: 5000 });
    expect(shown.body.basket.items).toHaveLength(2);
    expect(shown.body.event).toEqual({
      id: sale.event.id,
      frontend_path: sale.event.frontendPath,
      frontend_title: sale.event.frontendTitle,
    });
    expect(shown.body.invoices).toHaveLength(1);
    // Valid until 90 days after the event's end.
    const expiresAt = Number(token.split(".")[1]) * 1000;
    expect(expiresAt).toBe(Date.parse(sale.event.endDate) + ORDER_LINK_DAYS_AFTER_EVENT * 86_400_000);

    const item = shown.body.basket.items[0].id;
    const ticket = await download(ctx, `/frontend/orders/${token}/tickets/${item}`);
    expect(ticket.status).toBe(200);
    expect(ticket.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await ticket.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const all = await download(ctx, `/frontend/orders/${token}/tickets`);
    expect(all.status).toBe(200);
    expect(
      Buffer.from(await all.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const invoice = await download(ctx, `/frontend/orders/${token}/invoices/${shown.body.invoices[0].id}/pdf`);
    expect(invoice.status).toBe(200);
    expect(invoice.headers.get("content-type")).toBe("application/pdf");
  });

  it("answers 404 for a tampered, re-signed or expired token, and never another basket's invoice or ticket", async () => {
    const first = await paidOrder(ctx, `first-${driver}@example.org`);
    const second = await paidOrder(ctx, `second-${driver}@example.org`);
    const [basketId, expiresAt, signature] = first.token.split(".") as [string, string, string];
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`;
    for (const token of [
      `${basketId}.${expiresAt}.${flipped}`,
      // Another basket, or a later expiry, under the same signature.
      `${second.buyer.basketId}.${expiresAt}.${signature}`,
      `${basketId}.${Number(expiresAt) + 1}.${signature}`,
      // Signed with another key.
      orderToken("not-the-secret", Number(basketId), Number(expiresAt)),
      "nonsense",
    ]) {
      expect((await order(token)).status, token).toBe(404);
      expect((await download(ctx, `/frontend/orders/${token}/tickets`)).status).toBe(404);
    }
    const expired = orderToken(ctx.config.secretKey, Number(basketId), Math.floor(Date.now() / 1000) - 1);
    expect((await order(expired)).status).toBe(404);
    expect(basketIdOfOrderToken(ctx.config.secretKey, first.token, new Date(Number(expiresAt) * 1000 + 1))).toBeNull();

    const othersInvoice = (await order(second.token)).body.invoices[0].id;
    expect((await download(ctx, `/frontend/orders/${first.token}/invoices/${othersInvoice}/pdf`)).status).toBe(404);
    const othersItem = (await order(second.token)).body.basket.items[0].id;
    expect((await download(ctx, `/frontend/orders/${first.token}/tickets/${othersItem}`)).status).toBe(404);
  });

  it("shows an unpaid order but answers 409 for its tickets", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 10 });
    const buyer = await readyBuyer(ctx, sale);
    await checkOut(ctx, buyer);
    const basket = await ctx.database.db
      .select()
      .from(schema.baskets)
      .where(eq(schema.baskets.id, buyer.basketId))
      .get();
    const token = orderToken(ctx.config.secretKey, buyer.basketId, Math.floor(Date.now() / 1000) + 3600);
    const shown = await order(token);
    expect(shown.status).toBe(200);
    expect(shown.body.basket.status).toBe(basket?.status);
    expect((await download(ctx, `/frontend/orders/${token}/tickets`)).status).toBe(409);
  });
});
