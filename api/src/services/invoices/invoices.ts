// Invoices as staff handle them (docs/design.md §4 "Payments").
import { type Database, eq, schema } from "@ticketing/db";
import type { InvoicePaid } from "@ticketing/shared/schemas/sales";
import { conflict, notFound } from "../../lib/errors.ts";
import { getVisibleEvent, type User } from "../accounts/access.ts";
import { resolvePayment } from "../checkout/payment-resolution.ts";

/**
 * Point of sale: staff mark the invoice paid once the buyer paid on site. Only an invoice of an event the user
 * may see (404 otherwise), and only one paid at the point of sale (409): an online payment is its provider's to
 * resolve. Marking it paid twice changes nothing the second time. `onMailQueued` is told when the confirmation
 * mail was queued.
 */
export async function markInvoicePaid(
  { database, onMailQueued }: { database: Database; onMailQueued?: () => void },
  user: User,
  invoiceId: number,
  now: Date,
): Promise<InvoicePaid> {
  const { db } = database;
  const row = await db
    .select({ invoice: schema.invoices, basket: schema.baskets })
    .from(schema.invoices)
    .innerJoin(schema.baskets, eq(schema.baskets.id, schema.invoices.basketId))
    .where(eq(schema.invoices.id, invoiceId))
    .get();
  if (!row) throw notFound();
  await getVisibleEvent(db, user, row.basket.eventId);
  const intent = await db
    .select()
    .from(schema.paymentIntents)
    .where(eq(schema.paymentIntents.invoiceId, row.invoice.id))
    .get();
  if (intent?.moduleKey !== "point_of_sale") throw conflict("errors.invoice_not_point_of_sale");
  const result = await resolvePayment(database, { intentId: intent.id, pspId: intent.pspId, outcome: "success", now });
  if (result.changed) onMailQueued?.();
  return { invoiceId: row.invoice.id, changed: result.changed, basketStatus: result.basket.status };
}
