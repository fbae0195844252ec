// The support desk's baskets (issue 13): the list's search, date, status and preview filters; a basket's form
// answers and mails; its confirmation sent again, its tickets as one PDF, a point-of-sale payment marked paid.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, run, schema } from "@ticketing/db";
import { beforeAll, describe, expect, it } from "vitest";
import {
  BILLING,
  createOnSaleEvent,
  DRIVERS,
  download,
  eventResourceCreator,
  expectStockCountersMatchRows,
  FRENCH,
  jsonParam,
  loginAs,
  payOnDemoPage,
  checkOut as postCheckout,
  readyBuyer,
  signedInMember,
  signedInUser,
  stockUsed,
  useTestContext,
  writeEventRow,
} from "../../test-support.ts";
import { renderMail } from "../mail/templates/registry.ts";
import { hasCommand } from "../tickets/tickets.fixtures.ts";

/** How many pages a PDF of ours has (pdfkit writes one `/Type /Page` object a page). */
const pageCount = (pdf: Buffer) => pdf.toString("latin1").match(/\/Type \/Page\b/g)?.length ?? 0;

type Sale = Awaited<ReturnType<typeof createOnSaleEvent>>;
type Buyer = { token: string; basketId: number };

describe.each(DRIVERS)("baskets in the back office (%s)", (driver) => {
  const ctx = useTestContext(driver);

  /** The buyer checks out (in `language`); answers the checkout's body (its invoice and payment page). */
  async function checkOut(shopper: Buyer, method: "online" | "point_of_sale" = "online", language = "en") {
    const checkout = await postCheckout(ctx, shopper, method, language);
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    return checkout.body as { invoice: { id: number }; payment_url: string | null };
  }

  /** The buyer pays on the demo provider's page. */
  async function payOnline(shopper: Buyer, language = "en") {
    const checkout = await checkOut(shopper, "online", language);
    await payOnDemoPage(ctx, checkout.payment_url as string);
    return checkout;
  }

  const writeBasket = (basketId: number, values: Partial<typeof schema.baskets.$inferInsert>) =>
    ctx.database.transaction(function* (tx) {
      yield* run(tx.update(schema.baskets).set(values).where(eq(schema.baskets.id, basketId)).run());
    });

  describe("the list's filters", () => {
    let sale: Sale;
    let staff: string;
    const ids: Record<"paid" | "paying" | "odd" | "empty" | "testing", number> = {
      paid: 0,
      paying: 0,
      odd: 0,
      empty: 0,
      testing: 0,
    };
    let paidReference: string;

    beforeAll(async () => {
      sale = await createOnSaleEvent(ctx, { stock: 50, price: 2500 });
      staff = await loginAs(ctx, sale.email, sale.password);
      const paid = await readyBuyer(ctx, sale, {
        billing: { first_name: "Grace", last_name: "Hopper", email: "grace.hopper@navy.example" },
      });
      await payOnline(paid);
      const paying = await readyBuyer(ctx, sale, {
        billing: { first_name: "Alan", last_name: "Turing", email: "alan@bletchley.example" },
      });
      await checkOut(paying);
      const odd = await readyBuyer(ctx, sale, {
        billing: { first_name: "Fifty%", last_name: "Snake_case", email: "c@x.example" },
      });
      const empty = await readyBuyer(ctx, sale, { count: 0, billing: null });
      const testing = await readyBuyer(ctx, sale, {
        previewBy: staff,
        billing: { first_name: "Tess", last_name: "Preview", email: "tess@x.example" },
      });
      Object.assign(ids, {
        paid: paid.basketId,
        paying: paying.basketId,
        odd: odd.basketId,
        empty: empty.basketId,
        testing: testing.basketId,
      });
      // Creation moments around the day of 2 March 2026 (UTC), as days of selling would have left them.
      await writeBasket(ids.paid, { createdAt: "2026-03-01T08:00:00.000Z" });
      await writeBasket(ids.paying, { createdAt: "2026-03-02T00:00:00.000Z" });
      await writeBasket(ids.odd, { createdAt: "2026-03-02T23:59:59.999Z" });
      await writeBasket(ids.empty, { createdAt: "2026-03-03T00:00:00.000Z" });
      await writeBasket(ids.testing, { createdAt: "2026-03-02T12:00:00.000Z" });
      paidReference = (await ctx.call("GET", `/baskets/${ids.paid}`, { token: staff })).body.unikey;
    });

    const list = async (filter: Record<string, unknown>, token = staff, extra = "") => {
      const response = await ctx.call(
        "GET",
        `/baskets?filter=${jsonParam({ event_id: sale.event.id, ...filter })}${extra}`,
        {
          token,
        },
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return (response.body as { id: number }[]).map((row) => row.id).sort((a, b) => a - b);
    };
    const sorted = (...values: number[]) => [...values].sort((a, b) => a - b);

    it("finds a basket by its reference, the buyer's first name, last name, both, or email, in any case", async () => {
      expect(await list({ q: paidReference })).toEqual([ids.paid]);
      expect(await list({ q: paidReference.toLowerCase().slice(2, 8) })).toEqual([ids.paid]);
      expect(await list({ q: "grace" })).toEqual([ids.paid]);
      expect(await list({ q: "HOPPER" })).toEqual([ids.paid]);
      expect(await list({ q: "Grace Hopper" })).toEqual([ids.paid]);
      expect(await list({ q: "GRACE.hopper@NAVY" })).toEqual([ids.paid]);
      expect(await list({ q: "  turing " })).toEqual([ids.paying]);
      expect(await list({ q: "bletchley.example" })).toEqual([ids.paying]);
      expect(await list({ q: "nobody at all" })).toEqual([]);
      expect(await list({ q: "" })).toEqual(sorted(ids.paid, ids.paying, ids.odd, ids.empty));
      // A preview basket is found only among testing ones.
      expect(await list({ q: "preview" })).toEqual([]);
      expect(await list({ q: "preview", preview: true })).toEqual([ids.testing]);
      // A plain query string works as the JSON filter does.
      const plain = await ctx.call("GET", `/baskets?event_id=${sale.event.id}&q=hopper`, { token: staff });
      expect(plain.body.map((row: { id: number }) => row.id)).toEqual([ids.paid]);
    });

    it("reads % and _ in the search as themselves, not as wildcards", async () => {
      expect(await list({ q: "%" })).toEqual([ids.odd]);
      expect(await list({ q: "_" })).toEqual([ids.odd]);
      expect(await list({ q: "y%" })).toEqual([ids.odd]);
      expect(await list({ q: "e_c" })).toEqual([ids.odd]);
      expect(await list({ q: "Gr_ce" })).toEqual([]);
      expect(await list({ q: "\\" })).toEqual([]);
    });

    it("bounds the creation date by whole days or by moments, both ends included", async () => {
      expect(await list({ created_from: "2026-03-02", created_to: "2026-03-02" })).toEqual(sorted(ids.paying, ids.odd));
      expect(await list({ created_to: "2026-03-02" })).toEqual(sorted(ids.paid, ids.paying, ids.odd));
      expect(await list({ created_from: "2026-03-03" })).toEqual([ids.empty]);
      expect(await list({ created_from: "2026-03-02T00:00:00.001Z" })).toEqual(sorted(ids.odd, ids.empty));
      // A moment with an offset is that moment; one without is read as UTC.
      expect(await list({ created_from: "2026-03-02T01:00:00+01:00" })).toEqual(sorted(ids.paying, ids.odd, ids.empty));
      expect(await list({ created_from: "2026-03-02T00:00" })).toEqual(sorted(ids.paying, ids.odd, ids.empty));
      expect(await list({ created_to: "2026-03-01T08:00:00Z" })).toEqual([ids.paid]);
      expect(await list({ created_to: "2026-03-01T07:59:59.999Z" })).toEqual([]);
      expect(await list({ created_from: "2026-03-02", created_to: "2026-03-02", preview: true })).toEqual([
        ids.testing,
      ]);
      // ra-data-simple-rest's plain keys too.
      const plain = await ctx.call("GET", `/baskets?event_id=${sale.event.id}&created_from=2026-03-03`, {
        token: staff,
      });
      expect(plain.body.map((row: { id: number }) => row.id)).toEqual([ids.empty]);
    });

    it("refuses a date that is not one, saying which filter, in the caller's language", async () => {
      for (const bad of ["yesterday", "2026-02-30", "03/02/2026", "March 3", "2026-03-02T25:00Z", 20260302]) {
        const response = await ctx.call(
          "GET",
          `/baskets?filter=${jsonParam({ event_id: sale.event.id, created_from: bad })}`,
          {
            token: staff,
          },
        );
        expect(response, String(bad)).toMatchObject({
          status: 400,
          body: { errors: ["The created_from filter takes a date (YYYY-MM-DD) or a moment (ISO 8601)"] },
        });
      }
      const french = await ctx.call("GET", `/baskets?filter=${jsonParam({ created_to: "demain" })}`, {
        token: staff,
        headers: FRENCH,
      });
      expect(french).toMatchObject({
        status: 400,
        body: { errors: ["Le filtre created_to prend une date (AAAA-MM-JJ) ou un instant (ISO 8601)"] },
      });
    });

    it("filters by status, and refuses a status that does not exist", async () => {
      expect(await list({ status: "validated" })).toEqual([ids.paid]);
      expect(await list({ status: "payment_in_progress" })).toEqual([ids.paying]);
      expect(await list({ status: "new" })).toEqual(sorted(ids.odd, ids.empty));
      expect(await list({ status: "new", preview: true })).toEqual([ids.testing]);
      expect(await list({ status: "refunded" })).toEqual([]);
      const bad = await ctx.call("GET", `/baskets?filter=${jsonParam({ event_id: sale.event.id, status: "paid" })}`, {
        token: staff,
      });
      expect(bad).toMatchObject({
        status: 400,
        body: {
          errors: [
            "The status filter takes one of: new, payment_in_progress, validated, edition_in_progress, refunded",
          ],
        },
      });
    });

    it("lists testing baskets only with preview=true, and real ones otherwise", async () => {
      expect(await list({})).toEqual(sorted(ids.paid, ids.paying, ids.odd, ids.empty));
      expect(await list({ preview: true })).toEqual([ids.testing]);
      expect(await list({ preview: "true" })).toEqual([ids.testing]);
      expect(await list({ preview: false })).toEqual(sorted(ids.paid, ids.paying, ids.odd, ids.empty));
      const plain = await ctx.call("GET", `/baskets?event_id=${sale.event.id}&preview=true`, { token: staff });
      expect(plain.body.map((row: { id: number }) => row.id)).toEqual([ids.testing]);
    });

    it("sorts the newest first, a page at a time, its Content-Range counting what the filter keeps", async () => {
      const page = (filter: Record<string, unknown>, range: [number, number]) =>
        ctx.call(
          "GET",
          `/baskets?filter=${jsonParam({ event_id: sale.event.id, ...filter })}&sort=${jsonParam(["created_at", "DESC"])}&range=${jsonParam(range)}`,
          { token: staff },
        );
      const first = await page({}, [0, 1]);
      expect(first.body.map((row: { id: number }) => row.id)).toEqual([ids.empty, ids.odd]);
      expect(first.headers.get("content-range")).toBe("baskets 0-1/4");
      const second = await page({}, [2, 3]);
      expect(second.body.map((row: { id: number }) => row.id)).toEqual([ids.paying, ids.paid]);
      expect(second.headers.get("content-range")).toBe("baskets 2-3/4");
      const fromTheSecond = await page({ created_from: "2026-03-02" }, [0, 1]);
      expect(fromTheSecond.body.map((row: { id: number }) => row.id)).toEqual([ids.empty, ids.odd]);
      expect(fromTheSecond.headers.get("content-range")).toBe("baskets 0-1/3");
      const searched = await page({ q: "example", status: "new" }, [0, 9]);
      expect(searched.body.map((row: { id: number }) => row.id)).toEqual([ids.odd]);
      expect(searched.headers.get("content-range")).toBe("baskets 0-0/1");
      const none = await page({ q: "nobody" }, [0, 9]);
      expect(none.headers.get("content-range")).toBe("baskets */0");
    });

    it("shows an outsider none of the event's baskets, whatever they search", async () => {
      const { token } = await signedInUser(ctx, "outsider");
      expect(await list({}, token)).toEqual([]);
      expect(await list({ q: "grace" }, token)).toEqual([]);
      expect(await list({ preview: true }, token)).toEqual([]);
    });
  });

  describe("a basket's page: its articles' status", () => {
    const statusesOf = async (staff: string, basketId: number) => {
      const page = await ctx.call("GET", `/baskets/${basketId}`, { token: staff });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      return (page.body.articles as { id: number; title: string; status: string }[]).map((a) => [a.title, a.status]);
    };

    it("reads each article with its basket: held, awaiting payment, sold once paid, refunded, expired", async () => {
      const sale = await createOnSaleEvent(ctx, { stock: 10, price: 2500 });
      const staff = await loginAs(ctx, sale.email, sale.password);
      const shopper = await readyBuyer(ctx, sale, { count: 2 });
      expect(await statusesOf(staff, shopper.basketId)).toEqual([
        ["Entry", "held"],
        ["Entry", "held"],
      ]);
      const checkout = await checkOut(shopper);
      expect(await statusesOf(staff, shopper.basketId)).toEqual([
        ["Entry", "awaiting_payment"],
        ["Entry", "awaiting_payment"],
      ]);
      await payOnDemoPage(ctx, checkout.payment_url as string);
      // Paid: its articles are sold (their lines stay "held": the basket's status says they were paid).
      expect(await statusesOf(staff, shopper.basketId)).toEqual([
        ["Entry", "sold"],
        ["Entry", "sold"],
      ]);
      const [, second] = (await ctx.call("GET", `/baskets/${shopper.basketId}`, { token: staff })).body.articles;
      const refund = await ctx.call("POST", `/baskets/${shopper.basketId}/refunds`, {
        token: staff,
        body: { item_ids: [second.id], reason: "Cannot come" },
      });
      expect(refund.status, JSON.stringify(refund.body)).toBe(201);
      expect(await statusesOf(staff, shopper.basketId)).toEqual([
        ["Entry", "sold"],
        ["Entry", "refunded"],
      ]);

      // A basket left before checkout: once its reservation ran out (and the buyer came back), expired.
      const gone = await readyBuyer(ctx, sale, { count: 1 });
      await writeBasket(gone.basketId, { expiresAt: new Date(Date.now() - 1000).toISOString() });
      await ctx.call("GET", `/frontend/baskets/${gone.basketId}`, { token: gone.token });
      expect(await statusesOf(staff, gone.basketId)).toEqual([["Entry", "expired"]]);
    });
  });

  describe("a basket's page: its articles' form answers and its mails", () => {
    it("shows each article's answers (refunded ones too) and the mails about the basket, newest first", async () => {
      // Forms are added while the event is a draft; then it goes on sale.
      const sale = await createOnSaleEvent(ctx, { stock: 10, price: 2500, status: "draft" });
      const staff = await loginAs(ctx, sale.email, sale.password);
      const create = eventResourceCreator(ctx, staff, sale.event.id);
      const group = await create("node-extra-info-groups", {
        name: "Attendee",
        is_required: true,
        node_configuration_ids: [sale.article.configuration.id],
      });
      const badge = await create("node-extra-infos", { group_id: group, name: "Name on badge", type: "text" });
      const diet = await create("node-extra-infos", { group_id: group, name: "Diet", type: "text" });
      await writeEventRow(ctx, sale.event.id, { status: "public", moderationStatus: "validated" });

      const shopper = await readyBuyer(ctx, sale, { count: 2 });
      const other = await readyBuyer(ctx, sale, { billing: { email: "someone.else@example.org" } });
      const forms = await ctx.call("GET", `/frontend/baskets/${shopper.basketId}/forms`, { token: shopper.token });
      const [first, second] = forms.body.map((entry: { item_id: number }) => entry.item_id) as number[];
      const answer = (itemId: number | undefined, badgeName: string, dietText: string) =>
        ctx.call("PUT", `/frontend/selected-nodes/${itemId}/extra-infos`, {
          token: shopper.token,
          body: {
            answers: [
              { extra_info_id: badge, value: badgeName },
              { extra_info_id: diet, value: dietText },
            ],
          },
        });
      expect((await answer(first, "Ada", "vegan")).status).toBe(200);
      expect((await answer(second, "Charles", "none")).status).toBe(200);
      const expected = [
        {
          item_id: first,
          answers: [
            { group: "Attendee", name: "Name on badge", type: "text", value: "Ada" },
            { group: "Attendee", name: "Diet", type: "text", value: "vegan" },
          ],
        },
        {
          item_id: second,
          answers: [
            { group: "Attendee", name: "Name on badge", type: "text", value: "Charles" },
            { group: "Attendee", name: "Diet", type: "text", value: "none" },
          ],
        },
      ];
      const before = await ctx.call("GET", `/baskets/${shopper.basketId}`, { token: staff });
      expect(before.body.answers).toEqual(expected);
      expect(before.body.mails).toEqual([]);

      await payOnline(shopper);
      await payOnline(other);
      const paid = await ctx.call("GET", `/baskets/${shopper.basketId}`, { token: staff });
      expect(paid.body.status).toBe("validated");
      expect(paid.body.mails).toEqual([
        {
          id: expect.any(Number),
          kind: "order_confirmation",
          to: BILLING.email,
          status: "pending",
          subject: null,
          created_at: expect.any(String),
          sent_at: null,
        },
      ]);

      // An article refunded keeps its answers on the page; the refund's mail comes first.
      const refunded = await ctx.call("POST", `/baskets/${shopper.basketId}/refunds`, {
        token: staff,
        body: { item_ids: [second], reason: "Cannot come" },
      });
      expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
      const after = await ctx.call("GET", `/baskets/${shopper.basketId}`, { token: staff });
      expect(after.body.items.map((item: { id: number }) => item.id)).toEqual([first]);
      expect(after.body.answers).toEqual(expected);
      expect(after.body.mails.map((mail: { kind: string }) => mail.kind)).toEqual(["refund", "order_confirmation"]);
      // The other basket's page shows its own mail only.
      const otherPage = await ctx.call("GET", `/baskets/${other.basketId}`, { token: staff });
      expect(otherPage.body.mails).toMatchObject([{ kind: "order_confirmation", to: "someone.else@example.org" }]);
      expect(otherPage.body.answers).toEqual([]);
    });
  });

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
