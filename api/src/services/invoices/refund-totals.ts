// What a basket's or an event's invoices took and gave back; read by the basket page and the dashboard.
import { and, type Db, eq, isNotNull, isNull, schema, sql } from "@ticketing/db";
import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import type { SQL } from "drizzle-orm";
import { basketItems } from "../baskets/baskets.ts";

/** An invoice that took the buyer's money: paid, and not a credit note. */
export const isPaidInvoice = () =>
  and(
    eq(schema.invoices.isResolved, true),
    eq(schema.invoices.isCancelled, false),
    isNull(schema.invoices.relatedInvoiceId),
  ) as SQL;

/** A credit note not cancelled: paid back, or being paid back (its amount is negative). */
export const isLiveRefund = () =>
  and(isNotNull(schema.invoices.relatedInvoiceId), eq(schema.invoices.isCancelled, false)) as SQL;

/**
 * Over the invoices `where` selects: what the paid invoices took, and what the credit notes not cancelled gave back
 * or are giving back (positive). The one rule of a basket's page and of an event's dashboard.
 */
export async function invoiceTotals(db: Db, where: SQL | undefined): Promise<{ paid: number; refunded: number }> {
  const { amount } = schema.invoices;
  const row = await db
    .select({
      paid: sql<number>`coalesce(sum(case when ${isPaidInvoice()} then ${amount} else 0 end), 0)`,
      refunded: sql<number>`coalesce(sum(case when ${isLiveRefund()} then -${amount} else 0 end), 0)`,
    })
    .from(schema.invoices)
    .where(where)
    .get();
  return { paid: Number(row?.paid ?? 0), refunded: Number(row?.refunded ?? 0) };
}

/**
 * What the back office's basket page adds to the ticket office's detail: the articles refunded, what the paid
 * invoices took, and what the credit notes not cancelled gave back or are giving back.
 */
export async function refundsOf(
  db: Db,
  basketId: number,
): Promise<Pick<BasketDetail, "refundedItems" | "paidAmount" | "refundedAmount">> {
  const refunded = await basketItems(db, [basketId], "refunded");
  const totals = await invoiceTotals(db, eq(schema.invoices.basketId, basketId));
  return {
    refundedItems: refunded.get(basketId)?.items ?? [],
    paidAmount: totals.paid,
    refundedAmount: totals.refunded,
  };
}
