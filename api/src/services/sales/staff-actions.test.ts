// What staff do from a basket's page (issue 13): the confirmation sent again, the tickets as one PDF, a
// point-of-sale payment marked paid.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, schema } from "@ticketing/db";
import { beforeAll, describe, expect, it } from "vitest";
import {
  BILLING,
  createOnSaleEvent,
  DRIVERS,
  download,
  expectStockCountersMatchRows,
  FRENCH,
  loginAs,
  readyBuyer,
  signedInMember,
  signedInUser,
  stockUsed,
  useTestContext,
  writeEventRow,
} from "../../test-support.ts";
import { renderMail } from "../mail/templates/registry.ts";
import { hasCommand } from "../tickets/tickets.fixtures.ts";
import { pageCount, type Sale, salesDesk } from "./sales.fixtures.ts";

describe.each(DRIVERS)("baskets in the back office (%s)", (driver) => {
  const ctx = useTestContext(driver);
  const { checkOut, payOnline, writeBasket } = salesDesk(ctx);

  describe("what staff do from a basket's page", () => {
    let sale: Sale;
    let owner: string;
    let member: string;
    let outsider: string;
    beforeAll(async () => {
      sale = await createOnSaleEvent(ctx, { stock: 100, price: 2500 });
      await writeEventRow(ctx, sale.event.id, { isPointOfSaleEnabled: true });
      owner = await loginAs(ctx, sale.email, sale.password);
      member = (await signedInMember(ctx, sale.event.unitId)).token;
      outsider = (await signedInUser(ctx, "outsider")).token;
    });

    const basketPage = async (basketId: number) =>
      (await ctx.call("GET", `/baskets/${basketId}`, { token: owner })).body as {
        status: string;
        unikey: string;
        items: { id: number }[];
        mails: { id: number; kind: string }[];
      };
    const resend = (basketId: number, token = member, headers?: Record<string, string>) =>
      ctx.call("POST", `/baskets/${basketId}/confirmation-mail`, { token, body: {}, headers });
    const mailCount = async () => (await ctx.database.db.select().from(schema.mailOutbox).all()).length;
    const refundAll = async (basketId: number) => {
      const refunded = await ctx.call("POST", `/baskets/${basketId}/refunds`, {
        token: owner,
        body: { reason: "Event moved" },
      });
      expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
    };

    describe("sending the confirmation again", () => {
      it("queues it again for a member, to the billing address in the buyer's language, first among the mails", async () => {
        const shopper = await readyBuyer(ctx, sale, { billing: { email: "claire@example.ch" } });
        await payOnline(shopper, "fr");
        const [original] = (await basketPage(shopper.basketId)).mails;
        expect(original?.kind).toBe("order_confirmation");

        const resent = await resend(shopper.basketId);
        expect(resent.status, JSON.stringify(resent.body)).toBe(201);
        expect(resent.body).toEqual({
          id: expect.any(Number),
          kind: "order_confirmation",
          to: "claire@example.ch",
          status: "pending",
          subject: null,
          created_at: expect.any(String),
          sent_at: null,
        });
        expect(resent.body.id).not.toBe(original?.id);
        const row = await ctx.database.db
          .select()
          .from(schema.mailOutbox)
          .where(eq(schema.mailOutbox.id, resent.body.id))
          .get();
        expect(row).toMatchObject({ language: "fr", payload: { basket_id: shopper.basketId } });
        // The same mail as the first, in French.
        const rendered = await renderMail(
          { database: ctx.database, config: ctx.config },
          row as NonNullable<typeof row>,
        );
        expect(rendered.subject).toBe(`Vos billets pour ${sale.event.frontendTitle}`);
        expect((await basketPage(shopper.basketId)).mails.map((mail) => mail.id)).toEqual([
          resent.body.id,
          original?.id,
        ]);
        // The owner may too; each request queues one more.
        expect((await resend(shopper.basketId, owner)).status).toBe(201);
        expect((await basketPage(shopper.basketId)).mails).toHaveLength(3);
      });

      it("sends it for an order reopened to edit its answers", async () => {
        const shopper = await readyBuyer(ctx, sale);
        await payOnline(shopper);
        await writeBasket(shopper.basketId, { status: "edition_in_progress" });
        expect((await resend(shopper.basketId)).status).toBe(201);
      });

      it("refuses an order not paid, refunded, or without billing information, saying why, and queues nothing", async () => {
        const paying = await readyBuyer(ctx, sale);
        await checkOut(paying);
        const empty = await readyBuyer(ctx, sale, { count: 0, billing: null });
        const refunded = await readyBuyer(ctx, sale);
        await payOnline(refunded);
        await refundAll(refunded.basketId);
        expect((await basketPage(refunded.basketId)).status).toBe("refunded");
        const unbilled = await readyBuyer(ctx, sale);
        await payOnline(unbilled);
        await writeBasket(unbilled.basketId, { billingInformationId: null });

        const before = await mailCount();
        for (const basketId of [paying.basketId, empty.basketId, refunded.basketId]) {
          expect(await resend(basketId)).toMatchObject({
            status: 409,
            body: { errors: ["Only a paid order has a confirmation to send again"] },
          });
        }
        expect((await resend(paying.basketId, member, FRENCH)).body.errors).toEqual([
          "Seule une commande payée a une confirmation à renvoyer",
        ]);
        expect(await resend(unbilled.basketId)).toMatchObject({
          status: 409,
          body: {
            errors: ["This order has no billing information: there is no address to send its confirmation to"],
          },
        });
        expect((await resend(unbilled.basketId, member, FRENCH)).body.errors).toEqual([
          "Cette commande n'a pas d'informations de facturation : aucune adresse à laquelle envoyer sa confirmation",
        ]);
        expect(await mailCount()).toBe(before);
      });

      it("is not found for an outsider or an unknown basket, refuses a signed-out caller and a body", async () => {
        const shopper = await readyBuyer(ctx, sale);
        await payOnline(shopper);
        const before = await mailCount();
        expect(await resend(shopper.basketId, outsider)).toMatchObject({
          status: 404,
          body: { errors: ["Event not found"] },
        });
        expect((await resend(999_999)).status).toBe(404);
        const signedOut = await ctx.call("POST", `/baskets/${shopper.basketId}/confirmation-mail`, { body: {} });
        expect(signedOut.status).toBe(401);
        const withBody = await ctx.call("POST", `/baskets/${shopper.basketId}/confirmation-mail`, {
          token: member,
          body: { to: "attacker@example.org" },
        });
        expect(withBody).toMatchObject({ status: 400, body: { errors: ["Unknown field: to"] } });
        expect(await mailCount()).toBe(before);
      });
    });

    describe("downloading the tickets", () => {
      async function pdfText(response: Response, name: string) {
        const pdf = Buffer.from(await response.arrayBuffer());
        expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
        if (!hasCommand("pdftotext")) return { pdf, text: null };
        const file = join(ctx.dataDir, `${name}-${driver}.pdf`);
        writeFileSync(file, pdf);
        return { pdf, text: execFileSync("pdftotext", ["-raw", file, "-"]).toString() };
      }

      it("gives a member the order's valid tickets in one PDF, in the buyer's language or the one asked", async () => {
        const shopper = await readyBuyer(ctx, sale, { count: 3 });
        await payOnline(shopper, "fr");
        const { unikey, items } = await basketPage(shopper.basketId);

        const french = await download(ctx, `/baskets/${shopper.basketId}/tickets`, member);
        expect(french.status).toBe(200);
        expect(french.headers.get("content-type")).toBe("application/pdf");
        expect(french.headers.get("content-disposition")).toBe(`attachment; filename="tickets-${unikey}.pdf"`);
        const inFrench = await pdfText(french, "fr");
        expect(pageCount(inFrench.pdf)).toBe(3);
        if (inFrench.text) {
          expect(inFrench.text).toContain("TITULAIRE DU BILLET");
          expect(inFrench.text).toContain(`${BILLING.first_name} ${BILLING.last_name}`);
        }
        const english = await download(ctx, `/baskets/${shopper.basketId}/tickets?language=en`, owner);
        expect(english.status).toBe(200);
        const inEnglish = await pdfText(english, "en");
        expect(pageCount(inEnglish.pdf)).toBe(3);
        if (inEnglish.text) expect(inEnglish.text).toContain("TICKET HOLDER");

        // A refunded article's ticket is no longer in it; once all are refunded there is none to give.
        const refunded = await ctx.call("POST", `/baskets/${shopper.basketId}/refunds`, {
          token: owner,
          body: { item_ids: [items[0]?.id], reason: "Cannot come" },
        });
        expect(refunded.status).toBe(201);
        const fewer = await download(ctx, `/baskets/${shopper.basketId}/tickets`, member);
        expect(pageCount(Buffer.from(await fewer.arrayBuffer()))).toBe(2);
        await refundAll(shopper.basketId);
        const none = await ctx.call("GET", `/baskets/${shopper.basketId}/tickets`, { token: member });
        expect(none).toMatchObject({
          status: 409,
          body: { errors: ["This order has no valid ticket: it is not paid, or every article was refunded"] },
        });
      });

      it("has none for an order not paid, and asks for a language it knows", async () => {
        const paying = await readyBuyer(ctx, sale);
        await checkOut(paying, "point_of_sale");
        const french = await ctx.call("GET", `/baskets/${paying.basketId}/tickets`, { token: member, headers: FRENCH });
        expect(french).toMatchObject({
          status: 409,
          body: {
            errors: [
              "Cette commande n'a aucun billet valable : elle n'est pas payée, ou tous ses articles ont été remboursés",
            ],
          },
        });
        const paid = await readyBuyer(ctx, sale);
        await payOnline(paid);
        const german = await ctx.call("GET", `/baskets/${paid.basketId}/tickets?language=de`, { token: member });
        expect(german.status).toBe(400);
      });

      it("gives a testing order's tickets (marked as test tickets) to staff", async () => {
        const testing = await readyBuyer(ctx, sale, { previewBy: owner });
        await payOnline(testing);
        const response = await download(ctx, `/baskets/${testing.basketId}/tickets?language=en`, member);
        expect(response.status).toBe(200);
        const { text } = await pdfText(response, "testing");
        if (text) expect(text).toContain("TEST TICKET");
      });

      it("is not found for an outsider or an unknown basket, and refuses a signed-out caller", async () => {
        const shopper = await readyBuyer(ctx, sale);
        await payOnline(shopper);
        expect((await download(ctx, `/baskets/${shopper.basketId}/tickets`, outsider)).status).toBe(404);
        expect((await download(ctx, "/baskets/999999/tickets", member)).status).toBe(404);
        expect((await download(ctx, `/baskets/${shopper.basketId}/tickets`)).status).toBe(401);
        // A buyer's ticket-office token is not a back-office one.
        expect((await download(ctx, `/baskets/${shopper.basketId}/tickets`, shopper.token)).status).toBe(401);
      });
    });

    describe("marking a point-of-sale payment paid", () => {
      const markPaid = (invoiceId: number, token = member, headers?: Record<string, string>) =>
        ctx.call("POST", `/invoices/${invoiceId}/mark-paid`, { token, body: {}, headers });

      it("validates the order for a member, queues its confirmation and keeps its articles sold; twice changes nothing", async () => {
        const shopper = await readyBuyer(ctx, sale, { count: 2 });
        const { invoice } = await checkOut(shopper, "point_of_sale", "fr");
        const waiting = await basketPage(shopper.basketId);
        expect(waiting.status).toBe("payment_in_progress");
        expect(waiting.mails.map((mail) => mail.kind)).toEqual(["payment_reminder"]);
        const used = await stockUsed(ctx, sale.article.limit.id);

        const marked = await markPaid(invoice.id);
        expect(marked).toMatchObject({
          status: 200,
          body: { invoice_id: invoice.id, changed: true, basket_status: "validated" },
        });
        const paid = await basketPage(shopper.basketId);
        expect(paid.status).toBe("validated");
        expect(paid.mails.map((mail) => mail.kind)).toEqual(["order_confirmation", "payment_reminder"]);
        expect(await stockUsed(ctx, sale.article.limit.id)).toBe(used);
        await expectStockCountersMatchRows(ctx);
        const shown = await ctx.call("GET", `/invoices/${invoice.id}`, { token: member });
        expect(shown.body.status).toBe("paid");

        const again = await markPaid(invoice.id, owner);
        expect(again).toMatchObject({
          status: 200,
          body: { invoice_id: invoice.id, changed: false, basket_status: "validated" },
        });
        expect((await basketPage(shopper.basketId)).mails).toHaveLength(2);
        expect(await stockUsed(ctx, sale.article.limit.id)).toBe(used);
      });

      it("refuses an online payment, which its provider resolves, and changes nothing", async () => {
        const shopper = await readyBuyer(ctx, sale);
        const { invoice } = await checkOut(shopper, "online");
        expect(await markPaid(invoice.id)).toMatchObject({
          status: 409,
          body: { errors: ["Only point-of-sale invoices are marked paid here"] },
        });
        expect((await markPaid(invoice.id, member, FRENCH)).body.errors).toEqual([
          "Seules les factures au point de vente sont marquées payées ici",
        ]);
        expect((await basketPage(shopper.basketId)).status).toBe("payment_in_progress");
      });

      it("is not found for an outsider, and changes nothing", async () => {
        const shopper = await readyBuyer(ctx, sale);
        const { invoice } = await checkOut(shopper, "point_of_sale");
        expect(await markPaid(invoice.id, outsider)).toMatchObject({
          status: 404,
          body: { errors: ["Event not found"] },
        });
        expect((await markPaid(999_999)).status).toBe(404);
        expect((await basketPage(shopper.basketId)).status).toBe("payment_in_progress");
      });
    });
  });
});
