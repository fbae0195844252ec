// PDF tickets (docs/decisions/0008-mail-delivery-and-large-orders.md): one page per article, with a QR code
// carrying its signed ticket code; an order's tickets also come as one document, one page each, drawn a few
// pages at a time. The page itself (size, ink, testing band, encodable text) is lib/pdf-page.ts, shared with
// the invoices.
import type { Readable } from "node:stream";
import { setImmediate, setTimeout } from "node:timers/promises";
import type { Database } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import en from "@ticketing/shared/i18n/en/ticket.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/ticket.json" with { type: "json" };
import { createTranslator } from "@ticketing/shared/i18n/translate";
import { formatMoney } from "@ticketing/shared/money";
import QRCode from "qrcode";
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
import { formatEventDates } from "./event-dates.ts";
import type { TicketKeys } from "./ticket-codes.ts";
import { loadTicketData, pdfInputOf, type TicketPdfInput } from "./tickets.ts";

/**
 * All the tickets of a basket as one PDF, a page each, streamed as it is drawn (an order may hold thousands);
 * null when it has none. The caller checks that the basket is validated and that the visitor may see it.
 */
export async function streamBasketTickets(
  database: Database,
  keys: TicketKeys,
  basketId: number,
  language: Language,
): Promise<Readable | null> {
  const tickets = await loadTicketData(database, basketId);
  if (tickets.length === 0) return null;
  return streamTicketsPdf(tickets.map(pdfInputOf(keys, language)));
}

const dictionaries = { en, fr };

const QR_SIZE = 170;
/** Pages drawn between two yields to the event loop: other requests and mails run while a long PDF renders. */
const PAGES_PER_SLICE = 2;
/** Output waiting for a slow reader above which drawing pauses, so a huge download never piles up in memory. */
const MAX_BUFFERED_BYTES = 1 << 20;

export interface TicketsPdfOptions {
  /** Stops drawing: the document stream is destroyed with the signal's reason. */
  signal?: AbortSignal;
}

/** One A4 page: the event, the article, the holder, the QR code of the ticket code and the organiser's text. */
export function renderTicketPdf(input: TicketPdfInput): Promise<Buffer> {
  return renderTicketsPdf([input]);
}

/** Several tickets in one PDF document, one page each, in the order given (a rejection when there are none). */
export async function renderTicketsPdf(inputs: readonly TicketPdfInput[], options: TicketsPdfOptions = {}) {
  return pdfBuffer(streamTicketsPdf(inputs, options));
}

/**
 * The PDF of `inputs` as a stream, drawn a few pages at a time: a 2,500-page document never holds the event
 * loop for more than a few pages, and drawing waits while the reader is behind.
 */
export function streamTicketsPdf(inputs: readonly TicketPdfInput[], options: TicketsPdfOptions = {}): Readable {
  const [first] = inputs;
  if (!first) throw new Error("a PDF needs at least one ticket");
  const t = createTranslator(dictionaries, first.language);
  const title = inputs.length === 1 ? "document_title" : "documents_title";
  const doc = createA4Document({
    title: t(title, { event: first.eventTitle }),
    language: first.language,
    autoFirstPage: false,
  });
  const { signal } = options;
  const isStopped = () => doc.destroyed || signal?.aborted === true;
  const draw = async () => {
    for (const [index, input] of inputs.entries()) {
      if (index > 0 && index % PAGES_PER_SLICE === 0) {
        await setImmediate();
        while (doc.readableLength > MAX_BUFFERED_BYTES && !isStopped()) await setTimeout(10);
      }
      if (isStopped()) break;
      drawTicketPage(doc, input);
    }
    if (signal?.aborted) doc.destroy(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    else if (!doc.destroyed) doc.end();
  };
  draw().catch((error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))));
  return doc;
}

function drawTicketPage(doc: PDFKit.PDFDocument, input: TicketPdfInput) {
  const t = createTranslator(dictionaries, input.language);
  doc.addPage();
  const left = PAGE.margin;

  // Header band: what the ticket is for.
  doc.rect(0, 0, PAGE.width, 120).fill(ACCENT);
  doc
    .fillColor("#ffffff")
    .font("Helvetica")
    .fontSize(11)
    .text(pdfText(t("ticket").toUpperCase()), left, 34, { characterSpacing: 2 });
  doc
    .font("Helvetica-Bold")
    .fontSize(22)
    .text(pdfText(input.eventTitle), left, 54, { width: CONTENT_WIDTH, height: 60, ellipsis: true });

  let y = 140;
  if (input.isTesting) {
    testingBand(doc, { x: left, y, width: CONTENT_WIDTH, text: t("testing"), fontSize: 11, inset: 0 });
    y += 40;
  }

  // Details on the left, the QR code on the right.
  const qrX = PAGE.width - PAGE.margin - QR_SIZE;
  drawQrCode(doc, input.ticketCode, qrX, y, QR_SIZE);
  const detailsWidth = qrX - left - 24;
  const field = (label: string, value: string, bold = false) => {
    doc
      .fillColor(MUTED)
      .font("Helvetica")
      .fontSize(9)
      .text(pdfText(label.toUpperCase()), left, y, { width: detailsWidth, characterSpacing: 1 });
    doc
      .fillColor(INK)
      .font(bold ? "Helvetica-Bold" : "Helvetica")
      .fontSize(bold ? 14 : 11);
    doc.text(pdfText(value), left, doc.y + 3, { width: detailsWidth });
    y = doc.y + 12;
  };
  field(t("date"), formatEventDates(input.eventStart, input.eventEnd, input.language));
  if (input.location) field(t("location"), input.location);
  field(t("article"), input.articleTitle, true);
  if (input.options.length) {
    const lines = input.options.map((option) =>
      option.price ? `${option.title} (${formatMoney(option.price, input.language)})` : option.title,
    );
    field(t("options"), lines.map((line) => `• ${line}`).join("\n"));
  }
  field(t("price"), input.price ? formatMoney(input.price, input.language) : t("free"), true);
  field(t("holder"), input.holderName || "—");
  field(t("reference"), input.basketReference);

  // The code as text too: a scanner that cannot read the QR code can type it.
  y = Math.max(y, doc.y) + 8;
  y = Math.max(y, (input.isTesting ? 180 : 140) + QR_SIZE + 20);
  rule(doc, y);
  y += 12;
  doc
    .fillColor(MUTED)
    .font("Helvetica")
    .fontSize(9)
    .text(pdfText(t("code").toUpperCase()), left, y, { characterSpacing: 1 });
  // Cut into fixed lines ourselves: pdfkit would wrap after a "-" of the code, which reads as a hyphenation.
  const codeLines = input.ticketCode.match(/.{1,64}/g) ?? [];
  doc
    .fillColor(INK)
    .font("Courier")
    .fontSize(9)
    .text(codeLines.join("\n"), left, doc.y + 3, { width: CONTENT_WIDTH });
  doc
    .fillColor(MUTED)
    .font("Helvetica")
    .fontSize(9)
    .text(pdfText(t("scan_hint")), left, doc.y + 10, { width: CONTENT_WIDTH });

  if (input.organiserText?.trim()) {
    y = doc.y + 18;
    rule(doc, y);
    doc
      .fillColor(INK)
      .font("Helvetica")
      .fontSize(10)
      .text(pdfText(input.organiserText.trim()), left, y + 12, {
        width: CONTENT_WIDTH,
        height: PAGE.height - PAGE.margin - (y + 12),
        ellipsis: true,
      });
  }
}

/**
 * The QR code as vector squares (one rectangle per run of dark modules in a row), with a one-module quiet zone:
 * a few hundred bytes a ticket and sharp at any zoom, where a PNG cost ~25 KB and most of a page's render time.
 */
function drawQrCode(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number) {
  // Byte mode said up front: the library's search for the shortest mix of modes took as long as the rest of a page.
  const { modules } = QRCode.create([{ data: Buffer.from(text), mode: "byte" }], { errorCorrectionLevel: "M" });
  const quiet = 1;
  const cell = size / (modules.size + 2 * quiet);
  doc.rect(x, y, size, size).fill("#ffffff");
  for (let row = 0; row < modules.size; row++) {
    let runStart = -1;
    for (let column = 0; column <= modules.size; column++) {
      const isDark = column < modules.size && modules.get(row, column) === 1;
      if (isDark && runStart < 0) runStart = column;
      if (!isDark && runStart >= 0) {
        // A hair taller than a module: no light seam between rows when a viewer anti-aliases the edges.
        doc.rect(x + (quiet + runStart) * cell, y + (quiet + row) * cell, (column - runStart) * cell, cell + 0.05);
        runStart = -1;
      }
    }
  }
  doc.fill("#000000");
}
