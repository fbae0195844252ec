// Invoices as staff and the buyer see them (docs/design.md §4 "Payments", docs/specification.md §3 "Invoice"):
// `GET /invoices` (a list row), `GET /invoices/:id` (with its lines, billing, related invoices and payments), and the
// PDF both download.
import { z } from "zod";
import { INVOICE_STATUSES, LANGUAGES, PAYMENT_MODULES, PAYMENT_STATES } from "../constants.ts";
import { Cents, Id, IsoDate } from "./common.ts";
import { BillingInformation } from "./ticket-office.ts";

/**
 * `paid` once resolved, `cancelled` once its payment was cancelled or expired, `pending` otherwise. A refund's
 * credit note is paid once the money went back.
 */
export const InvoiceStatus = z.enum(INVOICE_STATUSES);

/** What a list of invoices shows, and what an invoice says of the invoices related to it. */
export const InvoiceRow = z.object({
  id: Id,
  /** 1, 2, 3… per unit without gaps; a testing basket's invoices run in a sequence of their own. */
  number: z.number().int(),
  /** How the number is written: `12`, or `TEST-3` for a testing invoice. */
  displayNumber: z.string(),
  isTesting: z.boolean(),
  basketId: Id,
  /** The basket's `unikey`, the reference the buyer quotes. */
  basketReference: z.string(),
  eventId: Id,
  /** cents; negative for a refund (a credit note) */
  amount: Cents,
  isRefund: z.boolean(),
  status: InvoiceStatus,
  /** For a refund, the invoice it refunds. */
  relatedInvoiceId: Id.nullable(),
  dueDate: IsoDate.nullable(),
  createdAt: IsoDate,
  resolvedAt: IsoDate.nullable(),
});
export type InvoiceRow = z.infer<typeof InvoiceRow>;

/** What an invoice bills: an article, or an option of the article above it (`isOption`). */
export const InvoiceLine = z.object({
  id: Id,
  selectedNodeId: Id,
  title: z.string(),
  /** The article's French title as added (empty: none, a French reader reads `title`). */
  titleFr: z.string(),
  /** cents; negative on a credit note */
  amount: Cents,
  isOption: z.boolean(),
});
export type InvoiceLine = z.infer<typeof InvoiceLine>;

/** A payment of the invoice: the module that takes it and the provider's id. */
export const InvoicePayment = z.object({
  id: Id,
  moduleKey: z.enum(PAYMENT_MODULES),
  pspId: z.string(),
  /** The provider's id of the money taken (Stripe's `pi_…`), once paid. */
  pspPaymentId: z.string().nullable(),
  state: z.enum(PAYMENT_STATES),
  errorMessage: z.string().nullable(),
  createdAt: IsoDate,
});
export type InvoicePayment = z.infer<typeof InvoicePayment>;

/** One invoice (`GET /invoices/:id`). */
export const InvoiceDetail = InvoiceRow.extend({
  /** The issuer: the event's unit. */
  unit: z.object({ id: Id, name: z.string(), address: z.string().nullable(), email: z.string().nullable() }),
  basket: z.object({
    id: Id,
    reference: z.string(),
    /** The buyer's language at checkout: their PDF's by default. */
    language: z.enum(LANGUAGES),
    eventId: Id,
    eventTitle: z.string(),
    /** The event's public title in French (empty: none, a French reader reads `eventTitle`). */
    eventTitleFr: z.string(),
    eventStart: IsoDate,
    eventEnd: IsoDate,
  }),
  /** A refund's reason, as staff gave it. */
  reason: z.string().nullable(),
  /** The provider's id of a refund's repayment (Stripe `re_…`); null for cash and demo refunds. */
  pspRefundId: z.string().nullable(),
  /** A credit note's original invoice; an invoice's credit notes. */
  relatedInvoices: z.array(InvoiceRow),
  lines: z.array(InvoiceLine),
  billingInformation: BillingInformation.nullable(),
  paymentIntents: z.array(InvoicePayment),
});
export type InvoiceDetail = z.infer<typeof InvoiceDetail>;

/** `GET /invoices/:id/pdf`, `GET /frontend/invoices/:id/pdf`: the PDF's language (the buyer's by default). */
export const InvoicePdfQuery = z.object({ language: z.enum(LANGUAGES).optional() });
export type InvoicePdfQuery = z.output<typeof InvoicePdfQuery>;
