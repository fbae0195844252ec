// The invoices list as a file: invoices and credit notes (negative amounts) with their basket and buyer, for the
// accounts.
import { eq, schema } from "@ticketing/db";
import { displayNumber, INVOICE_COLUMNS, invoiceStatus, invoicesWhere } from "../../invoices/invoice-views.ts";
import { columnsOf, type ExportTable, inBatches, sortKeyOf } from "./engine.ts";
import { type ExportRequest, fileNameOf, filteredEvents, keysetOf } from "./scope.ts";

export async function invoicesExport(request: ExportRequest): Promise<ExportTable> {
  const { db, query, t } = request;
  const events = await filteredEvents(request);
  const where = await invoicesWhere(db, request.user, query);
  const { invoices, baskets, billingInformation: billing } = schema;
  const keyset = keysetOf(query, INVOICE_COLUMNS, invoices.id);
  const batches = inBatches(keyset, where, () =>
    db
      .select({
        id: invoices.id,
        sortKey: sortKeyOf(keyset),
        number: invoices.number,
        isTesting: invoices.isTesting,
        amount: invoices.amount,
        isResolved: invoices.isResolved,
        isCancelled: invoices.isCancelled,
        createdAt: invoices.createdAt,
        resolvedAt: invoices.resolvedAt,
        dueDate: invoices.dueDate,
        reason: invoices.reason,
        reference: baskets.unikey,
        firstName: billing.firstName,
        lastName: billing.lastName,
      })
      .from(invoices)
      .innerJoin(baskets, eq(baskets.id, invoices.basketId))
      .leftJoin(billing, eq(billing.id, baskets.billingInformationId))
      .$dynamic(),
  );
  const header = (key: string) => t(`columns.invoices.${key}`);
  return {
    fileName: fileNameOf(request, "invoices", events),
    sheetName: t("sheets.invoices"),
    ...columnsOf(
      [
        { header: header("number"), kind: "text", width: 10, cell: displayNumber },
        {
          header: header("kind"),
          kind: "text",
          width: 14,
          cell: (row) => t(`values.invoice_kind.${row.amount < 0 ? "credit_note" : "invoice"}`),
        },
        { header: header("basket_reference"), kind: "text", width: 14, cell: (row) => row.reference },
        {
          header: header("buyer"),
          kind: "text",
          width: 28,
          cell: (row) => [row.firstName, row.lastName].filter(Boolean).join(" "),
        },
        { header: header("amount"), kind: "money", cell: (row) => row.amount },
        {
          header: header("status"),
          kind: "text",
          width: 12,
          cell: (row) => t(`values.invoice_status.${invoiceStatus(row)}`),
        },
        { header: header("created_at"), kind: "moment", cell: (row) => row.createdAt },
        { header: header("resolved_at"), kind: "moment", cell: (row) => row.resolvedAt },
        { header: header("due_date"), kind: "moment", cell: (row) => row.dueDate },
        { header: header("reason"), kind: "text", width: 30, cell: (row) => row.reason },
      ],
      batches,
    ),
  };
}
