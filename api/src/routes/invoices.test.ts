import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { hasCommand } from "../services/tickets/tickets.fixtures.ts";
import {
  checkOut,
  type createBuyer,
  createOnSaleEvent,
  DRIVERS,
  download,
  loginAs,
  markPaidByStaff,
  readyBuyer,
  useTestContext,
  writeEventRow,
} from "../test-support.ts";

const filter = (value: object) => encodeURIComponent(JSON.stringify(value));

describe.each(DRIVERS)("invoices (%s)", (driver) => {
  const ctx = useTestContext(driver);

  type Sale = Awaited<ReturnType<typeof createOnSaleEvent>>;
  type Buyer = Awaited<ReturnType<typeof createBuyer>>;

  /** A buyer with one article in their basket and their billing given, ready to check out. */

  const invoicesOf = async (token: string, query: object, preview = false) => {
    const response = await ctx.call(
      "GET",
      `/invoices?filter=${filter({ ...query, ...(preview ? { preview: true } : {}) })}&sort=${filter(["number", "ASC"])}`,
      { token },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { id: number; number: number; display_number: string; is_testing: boolean }[];
  };

  async function pdfText(response: Response, name: string) {
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    if (!hasCommand("pdftotext")) return null;
    const file = join(ctx.dataDir, `${name}.pdf`);
    writeFileSync(file, pdf);
    return execFileSync("pdftotext", ["-layout", file, "-"]).toString();
  }

  it("numbers 20 concurrent checkouts 1 to 20 in the unit, a second unit from 1, testing invoices apart", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 100, price: 2500 });
    const staff = await loginAs(ctx, sale.email, sale.password);
    const buyers = await Promise.all(Array.from({ length: 20 }, () => readyBuyer(ctx, sale)));
    const checkouts = await Promise.all(buyers.map((buyer) => checkOut(ctx, buyer)));
    expect(checkouts.map((checkout) => checkout.status)).toEqual(Array(20).fill(200));

    const numbers = checkouts.map((checkout) => checkout.body.invoice.number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const listed = await invoicesOf(staff, { event_id: sale.event.id });
    expect(listed.map((invoice) => invoice.number)).toEqual(numbers);

    // Another unit's sequence starts at 1.
    const other = await createOnSaleEvent(ctx, { stock: 5, price: 2500 });
    const otherCheckout = await checkOut(ctx, await readyBuyer(ctx, other));
    expect(otherCheckout.body.invoice.number).toBe(1);

    // A testing (preview) basket's invoice: its own sequence, out of the list unless preview=true asks.
    const testing = await checkOut(ctx, await readyBuyer(ctx, sale, { previewBy: staff }));
    expect(testing.status, JSON.stringify(testing.body)).toBe(200);
    expect(testing.body.invoice).toMatchObject({ number: 1, is_testing: true });
    expect((await invoicesOf(staff, { event_id: sale.event.id })).map((invoice) => invoice.id)).not.toContain(
      testing.body.invoice.id,
    );
    const previewed = await invoicesOf(staff, { event_id: sale.event.id }, true);
    expect(previewed.map((invoice) => [invoice.id, invoice.display_number])).toEqual([
      [testing.body.invoice.id, "TEST-1"],
    ]);
    // And the next real one takes 21.
    const next = await checkOut(ctx, await readyBuyer(ctx, sale));
    expect(next.body.invoice.number).toBe(21);
  });

  describe("staff and buyer views", () => {
    let sale: Sale;
    let staff: string;
    let outsider: string;
    let buyer: Pick<Buyer, "token" | "basketId">;
    let paidId: number;
    let pendingId: number;

    beforeAll(async () => {
      sale = await createOnSaleEvent(ctx, { stock: 20, price: 4500 });
      await writeEventRow(ctx, sale.event.id, { isPointOfSaleEnabled: true });
      staff = await loginAs(ctx, sale.email, sale.password);
      const stranger = await createOnSaleEvent(ctx, { stock: 1 });
      outsider = await loginAs(ctx, stranger.email, stranger.password);
      // A French buyer pays at the point of sale; staff mark it paid. Another buyer's online payment waits.
      buyer = await readyBuyer(ctx, sale);
      const paid = await checkOut(ctx, buyer, "point_of_sale", "fr");
      paidId = paid.body.invoice.id;
      const marked = await markPaidByStaff(ctx, staff, paidId);
      expect(marked.changed).toBe(true);
      pendingId = (await checkOut(ctx, await readyBuyer(ctx, sale))).body.invoice.id;
    });

    it("lists the event's invoices for its staff, filtered by status and basket, sorted, and hides them from others", async () => {
      const all = await ctx.call("GET", `/invoices?filter=${filter({ event_id: sale.event.id })}`, { token: staff });
      expect(all.status).toBe(200);
      expect(all.headers.get("content-range")).toBe("invoices 0-1/2");
      expect(all.body.map((row: { id: number }) => row.id)).toEqual([paidId, pendingId]);
      expect(all.body[0]).toMatchObject({
        number: 1,
        display_number: "1",
        basket_id: buyer.basketId,
        event_id: sale.event.id,
        amount: 4500,
        is_refund: false,
        status: "paid",
      });
      expect(all.body[0].basket_reference).toMatch(/^\w+$/);

      const paid = await ctx.call("GET", `/invoices?filter=${filter({ event_id: sale.event.id, status: "paid" })}`, {
        token: staff,
      });
      expect(paid.body.map((row: { id: number }) => row.id)).toEqual([paidId]);
      const pending = await ctx.call("GET", `/invoices?event_id=${sale.event.id}&status=pending`, { token: staff });
      expect(pending.body.map((row: { id: number }) => row.id)).toEqual([pendingId]);
      const byBasket = await ctx.call("GET", `/invoices?basket_id=${buyer.basketId}`, { token: staff });
      expect(byBasket.body.map((row: { id: number }) => row.id)).toEqual([paidId]);
      const newestFirst = await ctx.call(
        "GET",
        `/invoices?filter=${filter({ event_id: sale.event.id })}&sort=${filter(["created_at", "DESC"])}&range=[0,0]`,
        { token: staff },
      );
      expect(newestFirst.body.map((row: { id: number }) => row.id)).toEqual([pendingId]);
      expect(newestFirst.headers.get("content-range")).toBe("invoices 0-0/2");

      const wrongStatus = await ctx.call("GET", `/invoices?status=refunded`, { token: staff });
      expect(wrongStatus.status).toBe(400);
      expect(wrongStatus.body.errors).toEqual(["The status filter takes one of: paid, pending, cancelled"]);
      const wrongSort = await ctx.call("GET", `/invoices?sort=${filter(["reason", "ASC"])}`, { token: staff });
      expect(wrongSort.status).toBe(400);

      const hidden = await ctx.call("GET", `/invoices?filter=${filter({ event_id: sale.event.id })}`, {
        token: outsider,
      });
      expect(hidden.status).toBe(200);
      expect(hidden.body).toEqual([]);
    });

    it("shows one invoice with its lines, billing and payment to staff, and is not found for anyone else", async () => {
      const detail = await ctx.call("GET", `/invoices/${paidId}`, { token: staff });
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({
        id: paidId,
        status: "paid",
        amount: 4500,
        unit: { id: sale.event.unitId },
        basket: { id: buyer.basketId, language: "fr", event_id: sale.event.id, event_title: sale.event.frontendTitle },
        lines: [{ title: "Entry", amount: 4500, is_option: false }],
        billing_information: { first_name: "Ada", last_name: "Lovelace", city: "Lausanne" },
        payment_intents: [{ module_key: "point_of_sale", state: "paid" }],
        related_invoices: [],
      });
      expect(detail.body.resolved_at).not.toBeNull();
      expect((await ctx.call("GET", `/invoices/${paidId}`, { token: outsider })).status).toBe(404);
      expect((await ctx.call("GET", "/invoices/99999999", { token: staff })).status).toBe(404);
      expect((await ctx.call("GET", `/invoices/${paidId}/pdf`, { token: outsider })).status).toBe(404);
      expect((await ctx.call("GET", `/invoices/${paidId}`)).status).toBe(401);
    });

    it("gives staff the PDF in the buyer's language by default, or in the one asked", async () => {
      const response = await download(ctx, `/invoices/${paidId}/pdf`, staff);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="invoice-[a-z0-9-]+-1\.pdf"$/);
      const french = await pdfText(response, "staff-fr");
      const english = await pdfText(await download(ctx, `/invoices/${paidId}/pdf?language=en`, staff), "staff-en");
      if (french !== null && english !== null) {
        expect(french).toContain("FACTURE");
        expect(french).toMatch(/Entry\s+45\.00\sCHF/);
        expect(french).toContain("Payée le");
        expect(english).toContain("INVOICE");
        expect(english).toMatch(/Total\s+CHF\s45\.00/);
        expect(english).toContain("Ada Lovelace");
      }
      expect((await ctx.call("GET", `/invoices/${paidId}/pdf?language=de`, { token: staff })).status).toBe(400);
    });

    it("lets the buyer list and download their own basket's invoices, and no one else's", async () => {
      const mine = await ctx.call("GET", `/frontend/invoices?basket_id=${buyer.basketId}`, { token: buyer.token });
      expect(mine.status).toBe(200);
      expect(mine.body.map((row: { id: number; status: string }) => [row.id, row.status])).toEqual([[paidId, "paid"]]);

      const response = await download(ctx, `/frontend/invoices/${paidId}/pdf`, buyer.token);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="invoice-[a-z0-9-]+-1\.pdf"$/);
      const text = await pdfText(response, "buyer");
      if (text !== null) expect(text).toContain("FACTURE");
      const english = await download(ctx, `/frontend/invoices/${paidId}/pdf?language=en`, buyer.token);
      expect(english.status).toBe(200);

      const other = await readyBuyer(ctx, sale);
      expect((await ctx.call("GET", `/frontend/invoices/${paidId}/pdf`, { token: other.token })).status).toBe(404);
      expect(
        (await ctx.call("GET", `/frontend/invoices?basket_id=${buyer.basketId}`, { token: other.token })).status,
      ).toBe(404);
      expect((await ctx.call("GET", `/frontend/invoices/${pendingId}/pdf`, { token: buyer.token })).status).toBe(404);
      expect((await ctx.call("GET", "/frontend/invoices/99999999/pdf", { token: buyer.token })).status).toBe(404);
      // Staff are not buyers: their token carries no ticket-office login.
      expect((await ctx.call("GET", `/frontend/invoices/${paidId}/pdf`, { token: staff })).status).toBe(401);
    });
  });
});
