// The event's stocks table and dashboard (issue 13): figures that equal a count from the rows, that agree with the
// stock the ticket office shows, and that keep testing (preview) sales apart from real ones.
// The dashboard's sums per day and per article are in event-dashboard.test.ts.
import { describe, expect, it } from "vitest";
import { DRIVERS, markPaidByStaff, signedInUser } from "../../test-support.ts";
import { releaseExpiredHolds } from "../baskets/baskets.ts";
import { stocksTable } from "../catalogue/stocks.ts";
import { useSalesFigures } from "./event-sales.fixtures.ts";

describe.each(DRIVERS)("event sales figures (%s)", (driver) => {
  const { ctx, salesEvent, filled, checkOut, basketOf, refund, stocks, dashboard, expectTableFromRows } =
    useSalesFigures(driver);

  it("counts new, paying, validated, refunded and expired baskets as the rows and the ticket office do", async () => {
    const event = await salesEvent();
    const { staff, entry, shirt, workshop, drink } = event;
    const eventId = event.sale.event.id;

    // Expired: held once, released by the sweep once its time was over; it counts nowhere.
    const expired = await filled(event, [entry, workshop]);
    await releaseExpiredHolds(ctx.database, new Date(Date.now() + 365 * 24 * 3600_000));
    // Validated online: two entries (the first with a T-shirt) and a workshop.
    await checkOut(await filled(event, [[entry, [shirt]], entry, workshop]), "online");
    // Validated at the point of sale, then its entry refunded (the drink stays sold).
    const partly = await filled(event, [entry, drink]);
    await markPaidByStaff(ctx, staff, await checkOut(partly, "point_of_sale"));
    const partlyEntry = (await basketOf(staff, partly.basketId)).items.find((item) => item.node_id === entry);
    await refund(staff, partly.basketId, [partlyEntry?.id as number]);
    // Validated, then refunded whole.
    const whole = await filled(event, [entry, workshop]);
    await checkOut(whole, "online");
    await refund(staff, whole.basketId);
    expect((await basketOf(staff, whole.basketId)).status).toBe("refunded");
    // Paying at the point of sale, not paid yet.
    const paying = await filled(event, [entry, workshop]);
    await checkOut(paying, "point_of_sale");
    expect((await basketOf(staff, paying.basketId)).status).toBe("payment_in_progress");
    // Being filled.
    const fresh = await filled(event, [entry, drink, drink]);
    expect((await basketOf(staff, expired.basketId)).items).toEqual([]);

    const rows = await stocks(staff, eventId);
    // One row per article in tree order, the option left out; the path starts below the event's root.
    expect(rows.map((row) => [row.title, row.root_path])).toEqual([
      ["Entry", ""],
      ["Workshop", "Day 1"],
      ["Drink", ""],
    ]);
    const [entryRow, workshopRow, drinkRow] = rows;
    // Entry's own stock (8) is its tightest: what it holds is exactly its new, paying and validated lines.
    expect(entryRow).toMatchObject({
      new: 1,
      payment_in_progress: 1,
      validated: 2,
      refunded: 2,
      total: 8,
      reserved: 4,
      remaining: 4,
    });
    // The workshop's tightest is the Hall (12) it shares with Entry: both count in its reserved.
    expect(workshopRow).toMatchObject({
      new: 0,
      payment_in_progress: 1,
      validated: 1,
      refunded: 1,
      total: 12,
      reserved: 6,
      remaining: 6,
    });
    expect(drinkRow).toMatchObject({ new: 2, validated: 1, total: null, reserved: null, remaining: null });
    await expectTableFromRows(event, rows, fresh, false);

    // The service answers the same as the route (the csv/xlsx export reads it).
    const direct = await stocksTable(ctx.database.db, event.sale.organiser, eventId, false);
    expect(direct.rows.map((row) => [row.id, row.new, row.validated, row.reserved])).toEqual(
      rows.map((row) => [row.id, row.new, row.validated, row.reserved]),
    );
  });

  it("shows testing purchases only with preview=true, and they never move the real figures", async () => {
    const event = await salesEvent();
    const { staff, entry, workshop } = event;
    const eventId = event.sale.event.id;
    const buyer = await filled(event, [entry]);
    await checkOut(buyer, "online");
    const realBefore = await stocks(staff, eventId);
    const dashboardBefore = await dashboard(staff, eventId);

    const tester = await filled(event, [entry, workshop], true);
    await checkOut(tester, "online");
    const stillFilling = await filled(event, [workshop], true);

    expect(await stocks(staff, eventId)).toEqual(realBefore);
    expect(await dashboard(staff, eventId)).toEqual(dashboardBefore);
    const previewed = await stocks(staff, eventId, true);
    expect(previewed.map((row) => [row.title, row.new, row.validated, row.reserved])).toEqual([
      ["Entry", 0, 1, 1],
      // The Hall shared with Entry holds three testing articles: the tightest.
      ["Workshop", 1, 1, 3],
      ["Drink", 0, 0, null],
    ]);
    await expectTableFromRows(event, previewed, stillFilling, true);
    const testingDashboard = await dashboard(staff, eventId, true);
    expect(testingDashboard).toMatchObject({
      preview: true,
      total_sales: 6500,
      validated_baskets: 1,
      currently_purchasing: 1,
      sales_per_article: [
        { node_id: workshop, title: "Workshop", count: 1, amount: 4000 },
        { node_id: entry, title: "Entry", count: 1, amount: 2500 },
      ],
    });
    expect(dashboardBefore).toMatchObject({ preview: false, total_sales: 2500, validated_baskets: 1 });
  });

  it("answers 404 to an outsider, 401 without a token, and 400 for a bad preview flag", async () => {
    const event = await salesEvent();
    const eventId = event.sale.event.id;
    const { token: outsider } = await signedInUser(ctx, "outsider");
    for (const path of [`/events/${eventId}/stocks`, `/events/${eventId}/dashboard`]) {
      expect((await ctx.call("GET", path, { token: outsider })).status).toBe(404);
      expect((await ctx.call("GET", `${path}?preview=true`, { token: outsider })).status).toBe(404);
      expect((await ctx.call("GET", path)).status).toBe(401);
      const bad = await ctx.call("GET", `${path}?preview=maybe`, { token: event.staff });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.length).toBeGreaterThan(0);
      expect((await ctx.call("GET", path.replace(String(eventId), "999999"), { token: event.staff })).status).toBe(404);
    }
  });
});
