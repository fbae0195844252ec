import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ticketKeysOf, verifyTicketCode } from "../services/tickets/ticket-codes.ts";
import { addArticles, hasCommand, qrCodesOf } from "../services/tickets/tickets.fixtures.ts";
import {
  createBuyer,
  createOnSaleEvent,
  createTestContext,
  DRIVERS,
  submitBilling,
  type TestContext,
} from "../test-support.ts";

/** How many pages a PDF of ours has (pdfkit writes one `/Type /Page` object a page). */
const pageCount = (pdf: Buffer) => pdf.toString("latin1").match(/\/Type \/Page\b/g)?.length ?? 0;

describe.each(DRIVERS)("ticket downloads (%s)", (driver) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(driver);
  });
  afterAll(async () => ctx.close());

  /** A buyer with a basket of `count` free articles, validated at checkout unless `isPaid` is false. */
  async function order(count: number, isPaid = true) {
    const sale = await createOnSaleEvent(ctx, { stock: 50, price: 0 });
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    for (let index = 0; index < count; index++) {
      const added = await ctx.call("POST", "/frontend/selected-nodes", {
        token: buyer.token,
        body: { basket_id: buyer.basketId, node_id: sale.article.node.id },
      });
      expect(added.status).toBe(201);
    }
    await submitBilling(ctx, buyer);
    if (isPaid) {
      const checkout = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
        token: buyer.token,
        body: { payment_method: "online", terms_accepted: true },
      });
      expect(checkout.body.basket.status).toBe("validated");
    }
    const basket = await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token });
    return { ...sale, buyer, basket: basket.body };
  }

  const download = (path: string, token?: string, language = "en") =>
    ctx.app.request(`/api/v1${path}`, {
      headers: { "accept-language": language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });

  it("gives the buyer all the tickets of their order in one PDF, a page each, in their language", async () => {
    const { buyer, basket, event } = await order(3);
    const response = await download(`/frontend/baskets/${buyer.basketId}/tickets`, buyer.token, "fr");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="tickets-${basket.unikey}.pdf"`);
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pageCount(pdf)).toBe(3);
    // What the door reads: each page's QR code, genuine and naming its own article of this order.
    const keys = ticketKeysOf(ctx.config.ticketSigningKey);
    const tickets = basket.items.map((item: { id: number }) => ({
      eventId: event.id,
      basketId: buyer.basketId,
      itemId: item.id,
    }));
    expect(tickets).toHaveLength(3);
    expect(qrCodesOf(pdf).map((code) => verifyTicketCode(keys, code))).toEqual(tickets);
    if (hasCommand("pdftotext")) {
      const file = join(ctx.dataDir, "all.pdf");
      writeFileSync(file, pdf);
      const text = execFileSync("pdftotext", ["-raw", file, "-"]).toString();
      expect(text).toContain("TITULAIRE DU BILLET");
      const codes = [...text.matchAll(/CODE DU BILLET\n((?:[\w.-]+\n)+)/g)].map((match) =>
        (match[1] ?? "").replace(/\s/g, ""),
      );
      expect(codes.map((code) => verifyTicketCode(keys, code))).toEqual(tickets);
    }
  });

  it("refuses another buyer's order, a signed-out visitor and an unpaid order, the whole PDF as each ticket", async () => {
    const { buyer, basket, event, moduleId } = await order(2);
    const stranger = await createBuyer(ctx, event.id, moduleId);
    const item = basket.items[0].id as number;
    for (const path of [
      `/frontend/baskets/${buyer.basketId}/tickets`,
      `/frontend/baskets/${buyer.basketId}/tickets/${item}`,
    ]) {
      expect((await download(path, buyer.token)).status).toBe(200);
      expect((await download(path, stranger.token)).status).toBe(404);
      expect((await download(path)).status).toBe(401);
    }
    const unpaid = await order(1, false);
    const refused = await download(`/frontend/baskets/${unpaid.buyer.basketId}/tickets`, unpaid.buyer.token);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ errors: ["Tickets are available once the order is paid"] });
    expect((await download("/frontend/baskets/999999/tickets", buyer.token)).status).toBe(404);
    expect((await download("/frontend/baskets/abc/tickets", buyer.token)).status).toBe(404);
  });

  it("draws a 400-ticket PDF a few pages at a time, never holding the event loop", async () => {
    const { buyer } = await order(1);
    await addArticles(ctx.database, buyer.basketId, 399);
    // The event loop's turns while the PDF is drawn, counted rather than timed: a busy machine makes each turn
    // slower, not fewer.
    let turns = 0;
    let isCounting = true;
    const countTurn = () => {
      if (!isCounting) return;
      turns += 1;
      setImmediate(countTurn);
    };
    setImmediate(countTurn);
    const started = performance.now();
    const response = await download(`/frontend/baskets/${buyer.basketId}/tickets`, buyer.token);
    const pdf = Buffer.from(await response.arrayBuffer());
    const milliseconds = performance.now() - started;
    isCounting = false;
    console.info(
      `[tickets] 400 tickets: ${pdf.length} bytes in ${Math.round(milliseconds)} ms, ${turns} turns of the event loop (${driver})`,
    );
    expect(response.status).toBe(200);
    expect(pageCount(pdf)).toBe(400);
    // Drawn in one go, the loop would go round only for the download's own reads; it goes round at least once
    // every four pages.
    expect(turns).toBeGreaterThanOrEqual(100);
  });
});
