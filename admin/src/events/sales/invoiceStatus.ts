import {
  INVOICE_STATUSES,
  type InvoiceStatus,
  type PAYMENT_MODULES,
  type PaymentState,
} from "@ticketing/shared/constants";

export const invoiceStatusChoices = INVOICE_STATUSES.map((status) => ({
  id: status,
  name: `admin.invoiceStatus.${status}`,
}));

export const INVOICE_STATUS_COLOURS: Record<InvoiceStatus, "success" | "warning" | "default"> = {
  paid: "success",
  pending: "warning",
  cancelled: "default",
};

/** The i18n keys of a payment's module and state. */
export const paymentModuleLabel = (key: (typeof PAYMENT_MODULES)[number]) => `admin.paymentModule.${key}`;
export const paymentStateLabel = (state: PaymentState) => `admin.paymentState.${state}`;

/** The back office's address of an invoice: under its basket, under its event (docs/specification.md §2.2). */
export const invoicePath = (eventId: number | string, invoice: { basketId: number; id: number }) =>
  `/events/${eventId}/baskets/${invoice.basketId}/invoices/${invoice.id}`;

/** Saves a file the browser got (a PDF) under its name, as a download. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the object URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
