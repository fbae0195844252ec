// Writing an invoice (docs/design.md §4 "Payments"): numbered per unit without gaps, with the lines it bills.
import { and, type Db, eq, max, run, schema } from "@ticketing/db";

export type Invoice = typeof schema.invoices.$inferSelect;

export interface InvoiceLineInput {
  selectedNodeId: number;
  title: string;
  /** cents; negative on a refund */
  amount: number;
}

export interface InvoiceInput {
  basket: { id: number; testing: boolean };
  unitId: number;
  amount: number;
  dueDate: string | null;
  resolvedAt?: string | null;
  relatedInvoiceId?: number | null;
  reason?: string | null;
  lines: InvoiceLineInput[];
  isRefund?: boolean;
}

/**
 * Inside a write transaction: the invoice takes the next number of its unit's sequence (a testing basket's its own
 * sequence), so numbers have no gap whatever runs at once: the transaction that reads the last number is the only
 * writer until it commits, and a rolled-back one gives its number back. The unique index stops any duplicate.
 */
export function* writeInvoice(tx: Db, input: InvoiceInput): Generator<unknown, Invoice, unknown> {
  const last = yield* run(
    tx
      .select({ number: max(schema.invoices.number) })
      .from(schema.invoices)
      .where(and(eq(schema.invoices.unitId, input.unitId), eq(schema.invoices.isTesting, input.basket.testing)))
      .get(),
  );
  const invoice = yield* run(
    tx
      .insert(schema.invoices)
      .values({
        basketId: input.basket.id,
        unitId: input.unitId,
        number: (last?.number ?? 0) + 1,
        isTesting: input.basket.testing,
        amount: input.amount,
        dueDate: input.dueDate,
        isResolved: Boolean(input.resolvedAt),
        resolvedAt: input.resolvedAt ?? null,
        relatedInvoiceId: input.relatedInvoiceId ?? null,
        reason: input.reason ?? null,
      })
      .returning()
      .get(),
  );
  if (input.lines.length)
    yield* run(
      tx
        .insert(schema.invoiceLines)
        .values(input.lines.map((line) => ({ ...line, invoiceId: invoice.id, isRefund: input.isRefund ?? false })))
        .run(),
    );
  return invoice;
}
