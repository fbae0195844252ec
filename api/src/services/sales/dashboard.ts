// The event's dashboard (docs/specification.md §3 "Dashboard statistics"): figures derived from the rows by grouped
// queries, in real or testing (preview) counting, never both.
import { and, type Db, desc, eq, inArray, schema, sql } from "@ticketing/db";
import { SOLD_BASKET_STATUSES } from "@ticketing/shared/constants";
import type { Dashboard } from "@ticketing/shared/schemas/sales";
import type { SQL } from "drizzle-orm";
import { getVisibleEvent, type User } from "../accounts/access.ts";
import { eventArticleLines } from "../catalogue/stocks.ts";
import { invoiceTotals, isLiveRefund, isPaidInvoice } from "../invoices/refund-totals.ts";

/** The invoices of the event's real baskets, or of its testing ones with `preview`. */
function invoicesOfEvent(db: Db, eventId: number, preview: boolean): SQL {
  const { baskets, invoices } = schema;
  return inArray(
    invoices.basketId,
    db
      .select({ id: baskets.id })
      .from(baskets)
      .where(and(eq(baskets.eventId, eventId), eq(baskets.testing, preview))),
  );
}

/** Per UTC day: what paid invoices took (by the moment they were paid) and how many baskets; refunds by creation. */
async function salesOverTime(db: Db, invoices: SQL): Promise<Dashboard["salesOverTime"]> {
  const { amount, basketId, createdAt, resolvedAt } = schema.invoices;
  const paidDay = sql<string>`substr(coalesce(${resolvedAt}, ${createdAt}), 1, 10)`;
  const refundDay = sql<string>`substr(${createdAt}, 1, 10)`;
  const [sales, refunds] = await Promise.all([
    db
      .select({ date: paidDay, sales: sql<number>`sum(${amount})`, baskets: sql<number>`count(distinct ${basketId})` })
      .from(schema.invoices)
      .where(and(invoices, isPaidInvoice()))
      .groupBy(paidDay)
      .all(),
    db
      .select({ date: refundDay, refunds: sql<number>`-sum(${amount})` })
      .from(schema.invoices)
      .where(and(invoices, isLiveRefund()))
      .groupBy(refundDay)
      .all(),
  ]);
  const days = new Map<string, Dashboard["salesOverTime"][number]>();
  const day = (date: string) => {
    const entry = days.get(date) ?? { date, sales: 0, refunds: 0, baskets: 0 };
    days.set(date, entry);
    return entry;
  };
  for (const row of sales) Object.assign(day(row.date), { sales: Number(row.sales), baskets: Number(row.baskets) });
  for (const row of refunds) day(row.date).refunds = Number(row.refunds);
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** The baskets by what they are now: sold, refunded, and those holding articles (`new` ones until they expire). */
async function basketCounts(db: Db, eventId: number, preview: boolean, now: Date) {
  const { baskets, selectedNodes: lines } = schema;
  const holdsArticle = sql`exists (select 1 from ${lines} where ${lines.basketId} = ${baskets.id} and ${lines.isArticle} = 1 and ${lines.status} = 'held')`;
  const count = (condition: SQL | undefined) => sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;
  const row = await db
    .select({
      validated: count(inArray(baskets.status, [...SOLD_BASKET_STATUSES])),
      refunded: count(eq(baskets.status, "refunded")),
      purchasing: count(
        sql`${baskets.status} = 'payment_in_progress' or (${baskets.status} = 'new' and ${baskets.expiresAt} > ${now.toISOString()} and ${holdsArticle})`,
      ),
    })
    .from(baskets)
    .where(and(eq(baskets.eventId, eventId), eq(baskets.testing, preview)))
    .get();
  return {
    validatedBaskets: Number(row?.validated ?? 0),
    refundedBaskets: Number(row?.refunded ?? 0),
    currentlyPurchasing: Number(row?.purchasing ?? 0),
  };
}

/**
 * Per article sold (held in a sold basket): how many and for how much, options included, most sold first. Grouped
 * by the tree's node; a line whose node was deleted since groups by its title. The title is the newest line's
 * (SQLite gives a bare column the values of the row `max()` picked).
 */
async function salesPerArticle(db: Db, eventId: number, preview: boolean): Promise<Dashboard["salesPerArticle"]> {
  const { baskets, selectedNodes: lines } = schema;
  const withOptions = sql<number>`${lines.price} + coalesce((select sum(o.price) from ${lines} o where o.parent_id = ${lines.id} and o.status = 'held'), 0)`;
  const count = sql<number>`count(*)`;
  const amount = sql<number>`sum(${withOptions})`;
  const rows = await db
    .select({ newest: sql`max(${lines.id})`, nodeId: lines.nodeId, title: lines.title, count, amount })
    .from(lines)
    .innerJoin(baskets, eq(baskets.id, lines.basketId))
    .where(
      and(
        eventArticleLines(eventId, preview),
        inArray(baskets.status, [...SOLD_BASKET_STATUSES]),
        eq(lines.status, "held"),
      ),
    )
    .groupBy(lines.nodeId, sql`case when ${lines.nodeId} is null then ${lines.title} end`)
    .orderBy(desc(count), desc(amount), lines.title)
    .all();
  return rows.map((row) => ({
    nodeId: row.nodeId,
    title: row.title,
    count: Number(row.count),
    amount: Number(row.amount),
  }));
}

/** The dashboard of an event the user may see (404 otherwise); `preview` counts testing sales instead of real ones. */
export async function eventDashboard(
  db: Db,
  user: User,
  eventId: number,
  preview: boolean,
  now: Date,
): Promise<Dashboard> {
  await getVisibleEvent(db, user, eventId);
  const invoices = invoicesOfEvent(db, eventId, preview);
  const [totals, baskets, overTime, perArticle] = await Promise.all([
    invoiceTotals(db, invoices),
    basketCounts(db, eventId, preview, now),
    salesOverTime(db, invoices),
    salesPerArticle(db, eventId, preview),
  ]);
  return {
    eventId,
    preview,
    currency: "CHF",
    totalSales: totals.paid,
    totalRefunded: totals.refunded,
    ...baskets,
    salesOverTime: overTime,
    salesPerArticle: perArticle,
  };
}
