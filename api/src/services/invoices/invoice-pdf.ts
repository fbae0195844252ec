// The invoice PDF: A4 (the page of lib/pdf-page.ts, shared with the tickets), English or French, issued by the
// event's unit, every amount in CHF. A refund's credit note names the invoice it refunds and why; a testing
// invoice says it is not a real one.

import type { Language } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import { COUNTRIES } from "@ticketing/shared/countries";
import en from "@ticketing/shared/i18n/en/invoice.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/invoice.json" with { type: "json" };
import { createTranslator, type Translate } from "@ticketing/shared/i18n/translate";
import { formatMoney } from "@ticketing/shared/money";
import type { InvoiceDetail } from "@ticketing/shared/schemas/invoices";
import {
  ACCENT,
  CONTENT_WIDTH,
  createA4Document,
  INK,
  MUTED,
  PAGE,
  pdfBuffer,
  pdfText,
  rule,
  testingBand,
} from "../../lib/pdf-page.ts";
import { formatEventDates } from "../tickets/event-dates.ts";

const dictionaries = { en, fr };

const RIGHT = PAGE.width - PAGE.margin;
const AMOUNT_WIDTH = 120;
const STATUS_COLOURS = { paid: "#1e7b34", pending: "#9a6700", cancelled: "#666666" } as const;
/** Room kept at the foot of each page for the currency note and the page number. */
const FOOTER_HEIGHT = 40;

/** `invoice-lausanne-jazz-club-12.pdf`, `credit-note-…`, `…-TEST-3.pdf`: ASCII only, safe in a header. */
export function invoiceFileName(invoice: Pick<InvoiceDetail, "isRefund" | "displayNumber" | "unit">): string {
  const unit =
    invoice.unit.name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "unit";
  return `${invoice.isRefund ? "credit-note" : "invoice"}-${unit}-${invoice.displayNumber}.pdf`;
}

const dateFormats = new Map<Language, Intl.DateTimeFormat>();
/** `12 March 2026` / `12 mars 2026`, the day in Switzerland. */
function formatDate(iso: string, language: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = dateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language === "fr" ? "fr-CH" : "en-GB", {
      dateStyle: "long",
      timeZone: "Europe/Zurich",
    });
    dateFormats.set(language, format);
  }
  return format.format(date);
}

const countryName = (code: string, language: Language) => {
  const row = COUNTRIES.find(([known]) => known === code.toUpperCase());
  return row ? (language === "fr" ? row[2] : row[1]) : code;
};

/** What the status line says, and in which colour. */
function statusLine(invoice: InvoiceDetail, t: Translate, language: Language) {
  const colour = STATUS_COLOURS[invoice.status];
  if (invoice.status === "paid") {
    const date = formatDate(invoice.resolvedAt ?? invoice.createdAt, language);
    return { text: t(invoice.isRefund ? "status_refunded" : "status_paid", { date }), colour };
  }
  if (invoice.status === "cancelled") return { text: t("status_cancelled"), colour };
  if (invoice.isRefund) return { text: t("status_refund_pending"), colour };
  return invoice.dueDate
    ? { text: t("status_pending", { date: formatDate(invoice.dueDate, language) }), colour }
    : { text: t("status_pending_no_date"), colour };
}

/** The invoice (or credit note) as one PDF document, A4, a second page only for a long list of lines. */
export function renderInvoicePdf(invoice: InvoiceDetail, language: Language): Promise<Buffer> {
  const t = createTranslator(dictionaries, language);
  const kind = invoice.isRefund ? "credit_note" : "invoice";
  const doc = createA4Document({
    title: t(invoice.isRefund ? "credit_note_title" : "document_title", {
      number: invoice.displayNumber,
      unit: invoice.unit.name,
    }),
    author: invoice.unit.name,
    language,
    bufferPages: true,
  });
  const done = pdfBuffer(doc);
  drawInvoice(doc, invoice, t, language, kind);
  drawFooters(doc, t);
  doc.end();
  return done;
}

function drawInvoice(
  doc: PDFKit.PDFDocument,
  invoice: InvoiceDetail,
  t: Translate,
  language: Language,
  kind: "invoice" | "credit_note",
) {
  const left = PAGE.margin;
  const money = (cents: number) => pdfText(formatMoney(cents, language));

  // The issuer on the left, what the document is on the right.
  const issuerWidth = CONTENT_WIDTH * 0.55;
  doc
    .fillColor(INK)
    .font("Helvetica-Bold")
    .fontSize(15)
    .text(pdfText(invoice.unit.name), left, PAGE.margin, { width: issuerWidth });
  doc.font("Helvetica").fontSize(10).fillColor(MUTED);
  const issuer = [invoice.unit.address?.trim(), invoice.unit.email?.trim()].filter(Boolean).join("\n");
  if (issuer) doc.text(pdfText(issuer), left, doc.y + 4, { width: issuerWidth });
  const issuerBottom = doc.y;

  const titleX = left + issuerWidth + 10;
  const titleWidth = RIGHT - titleX;
  doc
    .fillColor(ACCENT)
    .font("Helvetica-Bold")
    .fontSize(22)
    .text(pdfText(t(kind).toUpperCase()), titleX, PAGE.margin - 2, { width: titleWidth, align: "right" });
  doc
    .fillColor(INK)
    .font("Helvetica-Bold")
    .fontSize(13)
    .text(pdfText(t("number", { number: invoice.displayNumber })), titleX, doc.y + 2, {
      width: titleWidth,
      align: "right",
    });
  let y = Math.max(issuerBottom, doc.y) + 18;

  if (invoice.isTesting) {
    testingBand(doc, { x: left, y, width: CONTENT_WIDTH, text: t("testing"), fontSize: 10, inset: 8 });
    y += 40;
  }

  rule(doc, y);
  y += 14;

  // The buyer on the left, the document's facts on the right.
  const columnWidth = CONTENT_WIDTH / 2 - 10;
  const factsX = left + CONTENT_WIDTH / 2 + 10;
  label(doc, t("bill_to"), left, y, columnWidth);
  const billing = invoice.billingInformation;
  // Erased at the buyer's request (docs/decisions/0046): the invoice keeps its amounts, and says so.
  const billTo = billing?.erasedAt
    ? t("personal_data_erased", { date: formatDate(billing.erasedAt, language) })
    : billing
      ? [
          `${billing.firstName} ${billing.lastName}`.trim(),
          billing.address,
          `${billing.postalCode} ${billing.city}`.trim(),
          countryName(billing.country, language),
          billing.email,
        ]
          .filter((line) => line.trim() !== "")
          .join("\n")
      : "—";
  doc
    .fillColor(INK)
    .font("Helvetica")
    .fontSize(10.5)
    .text(pdfText(billTo), left, doc.y + 3, { width: columnWidth });
  const billToBottom = doc.y;

  const facts: [string, string][] = [[t("issued"), formatDate(invoice.createdAt, language)]];
  if (!invoice.isRefund && invoice.dueDate) facts.push([t("due"), formatDate(invoice.dueDate, language)]);
  if (invoice.status === "paid" && invoice.resolvedAt)
    facts.push([t(invoice.isRefund ? "refunded_on_label" : "paid_on_label"), formatDate(invoice.resolvedAt, language)]);
  facts.push([t("reference"), invoice.basket.reference]);
  facts.push([
    t("event"),
    `${inLanguage(invoice.basket.eventTitle, invoice.basket.eventTitleFr, language)}\n${formatEventDates(invoice.basket.eventStart, invoice.basket.eventEnd, language)}`,
  ]);
  let factY = y;
  const labelWidth = 100;
  for (const [name, value] of facts) {
    doc
      .fillColor(MUTED)
      .font("Helvetica")
      .fontSize(9.5)
      .text(pdfText(name), factsX, factY, { width: labelWidth - 6 });
    const labelBottom = doc.y;
    doc
      .fillColor(INK)
      .font("Helvetica")
      .fontSize(10)
      .text(pdfText(value), factsX + labelWidth, factY, { width: columnWidth - labelWidth });
    factY = Math.max(labelBottom, doc.y) + 4;
  }
  y = Math.max(billToBottom, factY) + 16;

  // A credit note names the invoice it refunds and why.
  if (invoice.isRefund) {
    const original = invoice.relatedInvoices.find((other) => other.id === invoice.relatedInvoiceId);
    if (original) {
      doc
        .fillColor(INK)
        .font("Helvetica-Bold")
        .fontSize(10.5)
        .text(pdfText(t("refers_to", { number: original.displayNumber })), left, y, { width: CONTENT_WIDTH });
      y = doc.y + 3;
    }
    if (invoice.reason?.trim()) {
      doc
        .fillColor(INK)
        .font("Helvetica")
        .fontSize(10.5)
        .text(pdfText(t("reason", { reason: invoice.reason.trim() })), left, y, { width: CONTENT_WIDTH });
      y = doc.y + 3;
    }
    y += 10;
  }

  // The lines: articles, their options indented under them, then the total.
  const descriptionWidth = CONTENT_WIDTH - AMOUNT_WIDTH;
  const header = (top: number) => {
    doc.rect(left, top, CONTENT_WIDTH, 20).fill("#eef1f5");
    doc.fillColor(ACCENT).font("Helvetica-Bold").fontSize(9.5);
    doc.text(pdfText(t("description").toUpperCase()), left + 6, top + 6, { width: descriptionWidth - 12 });
    doc.text(pdfText(t("amount").toUpperCase()), left + descriptionWidth, top + 6, {
      width: AMOUNT_WIDTH - 6,
      align: "right",
    });
    return top + 26;
  };
  y = header(y);
  const bottom = PAGE.height - PAGE.margin - FOOTER_HEIGHT;
  // A further page says whose document it continues.
  const nextPage = () => {
    doc.addPage();
    const title = `${t(kind)} ${t("number", { number: invoice.displayNumber })} – ${invoice.unit.name}`;
    doc
      .fillColor(MUTED)
      .font("Helvetica")
      .fontSize(9)
      .text(pdfText(title), left, PAGE.margin, { width: CONTENT_WIDTH });
    return doc.y + 10;
  };
  for (const line of invoice.lines) {
    const indent = line.isOption ? 18 : 0;
    doc.font(line.isOption ? "Helvetica" : "Helvetica-Bold").fontSize(line.isOption ? 9.5 : 10.5);
    // The article's title as added, in the PDF's language (an invoice line keeps the English as billed).
    const read = inLanguage(line.title, line.titleFr, language);
    const title = pdfText(line.isOption ? `+ ${read}` : read);
    const height = doc.heightOfString(title, { width: descriptionWidth - 12 - indent });
    if (y + height + 8 > bottom) {
      y = header(nextPage());
      doc.font(line.isOption ? "Helvetica" : "Helvetica-Bold").fontSize(line.isOption ? 9.5 : 10.5);
    }
    doc.fillColor(line.isOption ? MUTED : INK).text(title, left + 6 + indent, y, {
      width: descriptionWidth - 12 - indent,
    });
    doc.text(money(line.amount), left + descriptionWidth, y, { width: AMOUNT_WIDTH - 6, align: "right" });
    y += height + 6;
    if (!line.isOption) rule(doc, y - 3, "#e4e4e4");
  }
  if (y + 60 > bottom) y = nextPage();
  y += 4;
  doc
    .moveTo(left + descriptionWidth - 80, y)
    .lineTo(RIGHT, y)
    .lineWidth(1)
    .strokeColor(INK)
    .stroke();
  y += 8;
  doc
    .fillColor(INK)
    .font("Helvetica-Bold")
    .fontSize(12)
    .text(pdfText(t(invoice.isRefund ? "total_refunded" : "total")), left + 6, y, {
      width: descriptionWidth - 12,
      align: "right",
    });
  doc.text(money(invoice.amount), left + descriptionWidth, y, { width: AMOUNT_WIDTH - 6, align: "right" });
  y = doc.y + 22;

  // Where the money stands.
  const status = statusLine(invoice, t, language);
  doc.font("Helvetica-Bold").fontSize(11);
  const statusHeight = doc.heightOfString(pdfText(status.text), { width: CONTENT_WIDTH - 24 }) + 16;
  if (y + statusHeight > bottom) y = nextPage();
  doc.rect(left, y, 4, statusHeight).fill(status.colour);
  doc.fillColor(status.colour).text(pdfText(status.text), left + 14, y + 8, { width: CONTENT_WIDTH - 24 });
}

/** Each page's foot: that the amounts are in CHF, and the page's number when there are several. */
function drawFooters(doc: PDFKit.PDFDocument, t: Translate) {
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    doc.switchToPage(index);
    const y = PAGE.height - PAGE.margin - 14;
    rule(doc, y - 8);
    // A margin of 0 while writing at the foot: pdfkit would otherwise start a new page below the bottom margin.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.fillColor(MUTED).font("Helvetica").fontSize(8.5);
    doc.text(pdfText(t("currency_note")), PAGE.margin, y, { width: CONTENT_WIDTH, lineBreak: false });
    if (count > 1)
      doc.text(pdfText(t("page", { page: index - start + 1, pages: count })), PAGE.margin, y, {
        width: CONTENT_WIDTH,
        align: "right",
        lineBreak: false,
      });
    doc.page.margins.bottom = margin;
  }
}

function label(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number) {
  doc.fillColor(MUTED).font("Helvetica").fontSize(9).text(pdfText(text.toUpperCase()), x, y, { width });
}
