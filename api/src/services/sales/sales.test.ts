// The support desk's baskets list (issue 13): its search, date, status and preview filters. A basket's page (its
// articles' status, form answers and mails) is in basket-page.test.ts, what staff do from it in staff-actions.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import {
  createOnSaleEvent,
  DRIVERS,
  FRENCH,
  jsonParam,
  loginAs,
  readyBuyer,
  signedInUser,
  useTestContext,
} from "../../test-support.ts";
import { type Sale, salesDesk } from "./sales.fixtures.ts";

describe.each(DRIVERS)("baskets in the back office (%s)", (driver) => {
  const ctx = useTestContext(driver);
  const { checkOut, payOnline, writeBasket } = salesDesk(ctx);

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
});
