// How invoices are shown (docs/design.md §4 "Payments"): the back office's list and detail of the invoices of the
// events a user may see, the buyer's invoices of their own basket, and the PDF of one for either.
import { and, asc, type Db, eq, inArray, or, schema } from "@ticketing/db";
import { INVOICE_STATUSES, type InvoiceStatus, type Language } from "@ticketing/shared/constants";
import type { InvoiceDetail, InvoiceLine, InvoicePayment, InvoiceRow } from "@ticketing/shared/schemas/invoices";
import type { SQL } from "drizzle-orm";
import { DomainError, notFound } from "../../lib/errors.ts";
import { idFilter, type ListOptions, type ListQuery, listPage } from "../../lib/list-query.ts";
import { canSeeUnit, inVisibleEvents, type User } from "../accounts/access.ts";
import { findOwnedBasket } from "../baskets/baskets.ts";
import { paymentState } from "../baskets/payment-state.ts";
import { invoiceFileName, renderInvoicePdf } from "./invoice-pdf.ts";
import type { Invoice } from "./invoice-writing.ts";

/** The columns the invoices list (and its export) can be ordered by. */
export const INVOICE_COLUMNS = {
  id: schema.invoices.id,
  number: schema.invoices.number,
  createdAt: schema.invoices.createdAt,
  amount: schema.invoices.amount,
};

export const INVOICE_LIST: ListOptions = {
  sortable: Object.keys(INVOICE_COLUMNS),
  idFilters: ["id", "eventId", "event", "basketId", "basket"],
};

/** Resolved wins (a paid invoice stays paid), then cancelled; anything else still waits for its money. */
export function invoiceStatus(invoice: Pick<Invoice, "isResolved" | "isCancelled">): InvoiceStatus {
  if (invoice.isResolved) return "paid";
  if (invoice.isCancelled) return "cancelled";
  return "pending";
}

/** `12`, or `TEST-3` for a testing basket's invoice (numbered in a sequence of its own). */
export const displayNumber = (invoice: Pick<Invoice, "number" | "isTesting">) =>
  invoice.isTesting ? `TEST-${invoice.number}` : String(invoice.number);

function statusCondition(status: InvoiceStatus): SQL | undefined {
  const { isResolved, isCancelled } = schema.invoices;
  if (status === "paid") return eq(isResolved, true);
  if (status === "cancelled") return and(eq(isResolved, false), eq(isCancelled, true));
  return and(eq(isResolved, false), eq(isCancelled, false));
}

/**
 * Which invoices the list (or its export) shows: those of the events the user may see, filtered by event, basket,
 * status and id. Testing invoices stay out unless `preview=true` asks for them, as for baskets (docs/design.md §4
 * "Testing").
 */
export async function invoicesWhere(db: Db, user: User, query: ListQuery): Promise<SQL | undefined> {
  const f = query.filter;
  if (f.status !== undefined && !(INVOICE_STATUSES as readonly unknown[]).includes(f.status))
    throw new DomainError("invalid", ["errors.filter_status_invalid"], undefined, {
      statuses: INVOICE_STATUSES.join(", "),
    });
  const preview = f.preview === true || f.preview === "true";
  const { baskets, invoices } = schema;
  const basketsShown = and(
    await inVisibleEvents(db, user, baskets.eventId),
    idFilter(query, "eventId", baskets.eventId) ?? idFilter(query, "event", baskets.eventId),
  );
  return and(
    basketsShown && inArray(invoices.basketId, db.select({ id: baskets.id }).from(baskets).where(basketsShown)),
    idFilter(query, "basketId", invoices.basketId) ?? idFilter(query, "basket", invoices.basketId),
    f.status === undefined ? undefined : statusCondition(f.status as InvoiceStatus),
    eq(invoices.isTesting, preview),
    idFilter(query, "id", invoices.id),
  );
}

/** A page of the invoices `invoicesWhere` shows. */
export async function listInvoices(
  db: Db,
  user: User,
  query: ListQuery,
): Promise<{ rows: InvoiceRow[]; total: number }> {
  const where = await invoicesWhere(db, user, query);
  const { rows, total } = await listPage(db, schema.invoices, where, query, INVOICE_COLUMNS);
  return { rows: await presentInvoiceRows(db, rows), total };
}

/** One invoice of an event the user may see, with its lines, billing, related invoices and payments; else 404. */
export async function getInvoice(db: Db, user: User, id: number): Promise<InvoiceDetail> {
  const invoice = await db.select().from(schema.invoices).where(eq(schema.invoices.id, id)).get();
  if (!invoice) throw notFound();
  const detail = await presentInvoiceDetail(db, invoice);
  if (!detail || !(await canSeeUnit(db, user, detail.unit.id))) throw notFound();
  return detail;
}

/** The PDF of an invoice of an event the user may see, in the language asked (the buyer's by default). */
export async function renderStaffInvoice(db: Db, user: User, id: number, language?: Language) {
  const invoice = await getInvoice(db, user, id);
  return pdfOf(invoice, language);
}

/** The invoices of one of the buyer's baskets, oldest first (404 for anyone else's basket). */
export async function listBuyerInvoices(db: Db, loginIds: number[], basketId: number): Promise<InvoiceRow[]> {
  const basket = await findOwnedBasket(db, loginIds, basketId);
  const rows = await db
    .select()
    .from(schema.invoices)
    .where(eq(schema.invoices.basketId, basket.id))
    .orderBy(asc(schema.invoices.id))
    .all();
  return presentInvoiceRows(db, rows);
}

/** The PDF of an invoice of one of the buyer's baskets (404 for anyone else's), in their checkout's language. */
export async function renderBuyerInvoice(db: Db, loginIds: number[], id: number, language?: Language) {
  const invoice = await db.select().from(schema.invoices).where(eq(schema.invoices.id, id)).get();
  if (!invoice) throw notFound();
  await findOwnedBasket(db, loginIds, invoice.basketId);
  const detail = await presentInvoiceDetail(db, invoice);
  if (!detail) throw notFound();
  return pdfOf(detail, language);
}

/** An invoice's PDF as a mail to its buyer attaches it; null when it no longer exists. */
export async function renderInvoiceAttachment(db: Db, id: number, language: Language) {
  const invoice = await db.select().from(schema.invoices).where(eq(schema.invoices.id, id)).get();
  const detail = invoice ? await presentInvoiceDetail(db, invoice) : null;
  return detail ? pdfOf(detail, language) : null;
}

async function pdfOf(invoice: InvoiceDetail, language: Language | undefined) {
  const pdf = await renderInvoicePdf(invoice, language ?? invoice.basket.language);
  return { pdf, fileName: invoiceFileName(invoice) };
}

/** The list shape: each invoice with its basket's reference and event. */
export async function presentInvoiceRows(db: Db, invoices: Invoice[]): Promise<InvoiceRow[]> {
  const basketIds = [...new Set(invoices.map((invoice) => invoice.basketId))];
  const baskets = basketIds.length
    ? await db
        .select({ id: schema.baskets.id, unikey: schema.baskets.unikey, eventId: schema.baskets.eventId })
        .from(schema.baskets)
        .where(inArray(schema.baskets.id, basketIds))
        .all()
    : [];
  const byId = new Map(baskets.map((basket) => [basket.id, basket]));
  return invoices.map((invoice) => rowOf(invoice, byId.get(invoice.basketId) ?? { unikey: "", eventId: 0 }));
}

function rowOf(invoice: Invoice, basket: { unikey: string; eventId: number }): InvoiceRow {
  return {
    id: invoice.id,
    number: invoice.number,
    displayNumber: displayNumber(invoice),
    isTesting: invoice.isTesting,
    basketId: invoice.basketId,
    basketReference: basket.unikey,
    eventId: basket.eventId,
    amount: invoice.amount,
    isRefund: invoice.amount < 0,
    status: invoiceStatus(invoice),
    relatedInvoiceId: invoice.relatedInvoiceId,
    dueDate: invoice.dueDate,
    createdAt: invoice.createdAt,
    resolvedAt: invoice.resolvedAt,
  };
}

/** The detail shape; null when its basket or event is gone. */
export async function presentInvoiceDetail(db: Db, invoice: Invoice): Promise<InvoiceDetail | null> {
  const { baskets, billingInformation, events, invoices, units } = schema;
  const row = await db
    .select({ basket: baskets, event: events, unit: units, billing: billingInformation })
    .from(baskets)
    .innerJoin(events, eq(events.id, baskets.eventId))
    .innerJoin(units, eq(units.id, events.unitId))
    .leftJoin(billingInformation, eq(billingInformation.id, baskets.billingInformationId))
    .where(eq(baskets.id, invoice.basketId))
    .get();
  if (!row) return null;
  // A credit note's original, and an original's credit notes.
  const related = await db
    .select()
    .from(invoices)
    .where(
      or(
        invoice.relatedInvoiceId === null ? undefined : eq(invoices.id, invoice.relatedInvoiceId),
        eq(invoices.relatedInvoiceId, invoice.id),
      ),
    )
    .orderBy(asc(invoices.id))
    .all();
  const intents = await db
    .select()
    .from(schema.paymentIntents)
    .where(eq(schema.paymentIntents.invoiceId, invoice.id))
    .orderBy(asc(schema.paymentIntents.id))
    .all();
  const { basket, event, unit, billing } = row;
  return {
    ...rowOf(invoice, basket),
    unit: { id: unit.id, name: unit.name, address: unit.address, email: unit.email },
    basket: {
      id: basket.id,
      reference: basket.unikey,
      language: basket.language,
      eventId: event.id,
      eventTitle: event.frontendTitle || event.name,
      eventTitleFr: event.frontendTitleFr,
      eventStart: event.startDate,
      eventEnd: event.endDate,
    },
    reason: invoice.reason,
    pspRefundId: invoice.pspRefundId,
    relatedInvoices: related.map((other) => rowOf(other, basket)),
    lines: await invoiceLines(db, invoice.id),
    billingInformation: billing,
    paymentIntents: intents.map(
      (intent): InvoicePayment => ({
        id: intent.id,
        moduleKey: intent.moduleKey,
        pspId: intent.pspId,
        pspPaymentId: intent.pspPaymentId,
        state: paymentState(intent, invoice),
        errorMessage: intent.errorMessage,
        createdAt: intent.createdAt,
      }),
    ),
  };
}

/**
 * The invoice's lines, each article followed by its options (an option's selected node has its article's as
 * parent). An option billed without its article (refunded alone) stands where its article would.
 */
async function invoiceLines(db: Db, invoiceId: number): Promise<InvoiceLine[]> {
  const rows = await db
    .select({
      id: schema.invoiceLines.id,
      selectedNodeId: schema.invoiceLines.selectedNodeId,
      title: schema.invoiceLines.title,
      titleFr: schema.selectedNodes.titleFr,
      amount: schema.invoiceLines.amount,
      parentId: schema.selectedNodes.parentId,
    })
    .from(schema.invoiceLines)
    .innerJoin(schema.selectedNodes, eq(schema.selectedNodes.id, schema.invoiceLines.selectedNodeId))
    .where(eq(schema.invoiceLines.invoiceId, invoiceId))
    .orderBy(asc(schema.invoiceLines.selectedNodeId), asc(schema.invoiceLines.id))
    .all();
  const billed = new Set(rows.map((row) => row.selectedNodeId));
  const ordered: InvoiceLine[] = [];
  const visit = ({ parentId, ...row }: (typeof rows)[number]) => {
    ordered.push({ ...row, isOption: parentId !== null });
    for (const child of rows.filter((other) => other.parentId === row.selectedNodeId)) visit(child);
  };
  for (const row of rows) if (row.parentId === null || !billed.has(row.parentId)) visit(row);
  return ordered;
}
