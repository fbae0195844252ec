// The event's dashboard (issue 13): sales, refunds and baskets added up per day and per article, as the invoices
// say; a basket being filled stops counting once its reservation time is over.
import { eq, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import { DRIVERS, markPaidByStaff } from "../../test-support.ts";
import { eventDashboard } from "./dashboard.ts";
import { useSalesFigures } from "./event-sales.fixtures.ts";

describe.each(DRIVERS)("event sales figures (%s)", (driver) => {
  const { ctx, salesEvent, filled, checkOut, basketOf, refund, dashboard } = useSalesFigures(driver);

  it("adds up sales, refunds and baskets, per day and per article", async () => {
    const event = await salesEvent();
    const { staff, entry, shirt, workshop, drink } = event;
    const eventId = event.sale.event.id;
    const empty = await dashboard(staff, eventId);
    expect(empty).toEqual({
      event_id: eventId,
      preview: false,
      currency: "CHF",
      total_sales: 0,
      total_refunded: 0,
      validated_baskets: 0,
      refunded_baskets: 0,
      currently_purchasing: 0,
      sales_over_time: [],
      sales_per_article: [],
    });

    // 30.00 + 25.00 + 25.00 + 40.00 online; the second entry refunded.
    const first = await filled(event, [[entry, [shirt]], entry, entry, workshop]);
    await checkOut(first, "online");
    const second = (await basketOf(staff, first.basketId)).items.filter((item) => item.node_id === entry)[1];
    await refund(staff, first.basketId, [second?.id as number]);
    // 40.00 + 8.00 at the point of sale, refunded whole.
    const whole = await filled(event, [workshop, drink]);
    await markPaidByStaff(ctx, staff, await checkOut(whole, "point_of_sale"));
    await refund(staff, whole.basketId);
    // Paying, and being filled (an empty basket counts for nothing).
    await checkOut(await filled(event, [drink]), "online", false);
    const fresh = await filled(event, [drink]);
    await filled(event, []);

    const figures = await dashboard(staff, eventId);
    expect(figures).toMatchObject({
      total_sales: 12000 + 4800,
      total_refunded: 2500 + 4800,
      validated_baskets: 1,
      refunded_baskets: 1,
      currently_purchasing: 2,
      sales_per_article: [
        { node_id: entry, title: "Entry", count: 2, amount: 5500 },
        { node_id: workshop, title: "Workshop", count: 1, amount: 4000 },
      ],
    });
    // Per day, as the invoices' own dates say.
    const invoices = await ctx.database.db
      .select()
      .from(schema.invoices)
      .innerJoin(schema.baskets, eq(schema.baskets.id, schema.invoices.basketId))
      .where(eq(schema.baskets.eventId, eventId))
      .all();
    const days = new Map<string, { date: string; sales: number; refunds: number; baskets: number }>();
    for (const { invoices: invoice } of invoices) {
      if (invoice.isCancelled || (invoice.relatedInvoiceId === null && !invoice.isResolved)) continue;
      const date = (invoice.relatedInvoiceId === null ? (invoice.resolvedAt ?? "") : invoice.createdAt).slice(0, 10);
      const day = days.get(date) ?? { date, sales: 0, refunds: 0, baskets: 0 };
      if (invoice.relatedInvoiceId === null)
        Object.assign(day, { sales: day.sales + invoice.amount, baskets: day.baskets + 1 });
      else day.refunds -= invoice.amount;
      days.set(date, day);
    }
    expect(figures.sales_over_time).toEqual([...days.values()].sort((a, b) => a.date.localeCompare(b.date)));
    expect(figures.sales_over_time.reduce((sum: number, day: { sales: number }) => sum + day.sales, 0)).toBe(16800);

    // The fresh basket stops counting once its reservation time is over; the paying one still counts.
    const basket = await ctx.database.db
      .select()
      .from(schema.baskets)
      .where(eq(schema.baskets.id, fresh.basketId))
      .get();
    const expiresAt = new Date(basket?.expiresAt as string);
    const at = (moment: Date) => eventDashboard(ctx.database.db, event.sale.organiser, eventId, false, moment);
    expect((await at(new Date(expiresAt.getTime() - 1000))).currentlyPurchasing).toBe(2);
    expect((await at(new Date(expiresAt.getTime() + 1000))).currentlyPurchasing).toBe(1);
  });
});
