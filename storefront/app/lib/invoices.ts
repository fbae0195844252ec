// The invoices the completion page offers to download: the order's paid invoice and its credit notes.
import type { InvoiceRow } from "@ticketing/shared/schemas/invoices";

export type DownloadableInvoice = Pick<InvoiceRow, "id" | "displayNumber" | "isRefund" | "status">;

/**
 * The paid invoice(s) and the credit notes of refunds not cancelled, oldest first. An invoice of a payment that
 * was cancelled or failed, or one still waiting for its money, is not the order's.
 */
export function downloadableInvoices<T extends DownloadableInvoice>(invoices: readonly T[]): T[] {
  return invoices.filter((invoice) => (invoice.isRefund ? invoice.status !== "cancelled" : invoice.status === "paid"));
}
