// Where a payment stands (docs/specification.md §4): one rule for the ticket office, the back office and the mails,
// with no dependency on how payments are made (checkout.ts), so that presenters and mail templates may use it.
import { type Db, desc, eq, prepared, schema } from "@ticketing/db";
import { PAYMENT_TERM_EXPIRED, type PaymentState } from "@ticketing/shared/constants";
import { inList, jsonList } from "../../lib/id-lists.ts";

type PaymentIntent = typeof schema.paymentIntents.$inferSelect;
type Invoice = typeof schema.invoices.$inferSelect;

/** Open to pay, or closed for one of four reasons shown to the buyer. */
export function paymentState(intent: PaymentIntent, invoice: Invoice): PaymentState {
  if (invoice.isResolved) return "paid";
  if (intent.isError) return "failed";
  if (intent.isCancelled && intent.errorMessage === PAYMENT_TERM_EXPIRED) return "expired";
  if (intent.isCancelled || invoice.isCancelled) return "cancelled";
  return "open";
}
export type { PaymentState };

const intentsOfBaskets = prepared((db) =>
  db
    .select({ intent: schema.paymentIntents, invoice: schema.invoices })
    .from(schema.paymentIntents)
    .innerJoin(schema.invoices, eq(schema.invoices.id, schema.paymentIntents.invoiceId))
    .where(inList(schema.invoices.basketId, "basketIds"))
    .orderBy(desc(schema.paymentIntents.id))
    .prepare(),
);

/** The payments of the baskets, each with its invoice, newest first. */
export async function paymentIntentsOf(db: Db, basketIds: number[]) {
  if (basketIds.length === 0) return [];
  return intentsOfBaskets(db).all({ basketIds: jsonList(basketIds) });
}

/** The basket's newest payment still open to pay; null when there is none. */
export async function openPaymentOf(db: Db, basketId: number): Promise<PaymentIntent | null> {
  const rows = await paymentIntentsOf(db, [basketId]);
  return rows.find(({ intent, invoice }) => paymentState(intent, invoice) === "open")?.intent ?? null;
}
