// What a refund is to the buyer (docs/design.md §4 "Payments"): its credit note's articles and amount, and how the
// money comes back. Read by the refund mail, whoever wrote the credit note (staff, or an automatic refund).
import { and, asc, type Database, eq, inArray, lte, ne, schema } from "@ticketing/db";
import { GIVEN_BACK_STATUSES, type PaymentModule } from "@ticketing/shared/constants";

export interface RefundedArticle {
  /** The credit note's line, and the article's French title as added (empty: none, the English is read). */
  title: string;
  titleFr: string;
  /** cents, positive: the article alone */
  amount: number;
  options: { title: string; titleFr: string; amount: number }[];
}

export interface RefundView {
  /** cents, positive */
  amount: number;
  /** The module that took the payment, which pays it back; `none` when no payment was taken. */
  method: PaymentModule | "none";
  /** Nothing of the basket was left to refund after this one (the credit notes up to it, not cancelled). */
  isWhole: boolean;
  /**
   * A payment received after its order was cancelled and paid back in full (docs/decisions/0010): its intent had
   * been cancelled or had failed, and no ticket was ever issued.
   */
  isLate: boolean;
  articles: RefundedArticle[];
}

/** A credit note of the basket, as the buyer reads it; null when it is not one of the basket's credit notes. */
export async function loadRefund(database: Database, basketId: number, invoiceId: number): Promise<RefundView | null> {
  const { db } = database;
  const { invoices, invoiceLines, paymentIntents, selectedNodes } = schema;
  const refund = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.basketId, basketId)))
    .get();
  if (!refund || refund.relatedInvoiceId === null) return null;
  const lines = await db
    .select({ line: invoiceLines, node: selectedNodes })
    .from(invoiceLines)
    .innerJoin(selectedNodes, eq(selectedNodes.id, invoiceLines.selectedNodeId))
    .where(eq(invoiceLines.invoiceId, refund.id))
    .orderBy(asc(selectedNodes.id))
    .all();
  const articles = lines
    .filter(({ node }) => node.isArticle)
    .map(({ line, node }) => ({
      title: line.title,
      titleFr: node.titleFr,
      amount: -line.amount,
      options: lines
        .filter((option) => option.node.parentId === node.id)
        .map((option) => ({ title: option.line.title, titleFr: option.node.titleFr, amount: -option.line.amount })),
    }));
  const intents = await db
    .select()
    .from(paymentIntents)
    .where(eq(paymentIntents.invoiceId, refund.relatedInvoiceId))
    .orderBy(asc(paymentIntents.id))
    .all();
  const intent = intents.findLast((row) => !row.isError && !row.isCancelled) ?? intents.at(-1);
  // Whole: every article the basket still had (held or refunded) is refunded by this credit note or an earlier one.
  const kept = await db
    .select({ id: selectedNodes.id })
    .from(selectedNodes)
    .where(
      and(
        eq(selectedNodes.basketId, basketId),
        eq(selectedNodes.isArticle, true),
        ...GIVEN_BACK_STATUSES.map((status) => ne(selectedNodes.status, status)),
      ),
    )
    .all();
  const refundedSoFar = kept.length
    ? await db
        .select({ selectedNodeId: invoiceLines.selectedNodeId })
        .from(invoiceLines)
        .innerJoin(invoices, eq(invoices.id, invoiceLines.invoiceId))
        .where(
          and(
            eq(invoiceLines.isRefund, true),
            inArray(
              invoiceLines.selectedNodeId,
              kept.map((row) => row.id),
            ),
            eq(invoices.isCancelled, false),
            lte(invoices.id, refund.id),
          ),
        )
        .all()
    : [];
  const refundedIds = new Set(refundedSoFar.map((row) => row.selectedNodeId));
  return {
    amount: -refund.amount,
    method: intent?.moduleKey ?? "none",
    isWhole: kept.every((row) => refundedIds.has(row.id)),
    isLate: intents.length > 0 && intents.every((row) => row.isError || row.isCancelled),
    articles,
  };
}
