// PDF tickets (DESIGN.md 4 "Tickets"): one page per article, with a QR code carrying its signed ticket code;
// an order's tickets also come as one document, one page each.

import type { Readable } from "node:stream";
import { setImmediate, setTimeout } from "node:timers/promises";
import { and, asc, type Database, eq, inArray, schema } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import en from "@ticketing/shared/i18n/en/ticket.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/ticket.json" with { type: "json" };
import { createTranslator } from "@ticketing/shared/i18n/translate";
import { formatMoney } from "@ticketing/shared/money";
import { communicationField, fillPlaceholders } from "@ticketing/shared/schemas/events";
import type { TicketVerification } from "@ticketing/shared/schemas/ticket-office";
import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import { invalid } from "../../lib/errors.ts";
import { listArticles } from "../catalogue/catalogue.ts";
import { createTicketCode, type TicketCodeClaims, type TicketKeys, verifyTicketCode } from "./ticket-codes.ts";

export interface TicketPdfInput {
  language: Language;
  eventTitle: string;
  /** ISO 8601 */
  eventStart: string;
  eventEnd: string;
  /** Place and address, one per line. */
  location: string;
  articleTitle: string;
  options: { title: string; price: number }[];
  /** cents: the article with its options */
  price: number;
  holderName: string;
  /** The basket's `unikey`. */
  basketReference: string;
  isTesting: boolean;
  ticketCode: string;
  /** The organiser's text for the ticket (`communication_settings.pdf_ticket_text_<language>`), filled in. */
  organiserText: string | null;
}

/** What a ticket shows, before it is signed and rendered in a language (the organiser's text in each). */
export type TicketData = Omit<TicketPdfInput, "language" | "ticketCode" | "organiserText"> & {
  claims: TicketCodeClaims;
  organiserTexts: Record<Language, string | null>;
};

export interface OrderArticle {
  id: number;
  title: string;
  options: { id: number; title: string; price: number }[];
  /** cents: the article with its options */
  linePrice: number;
}

export interface Order {
  basket: Pick<typeof schema.baskets.$inferSelect, "id" | "unikey" | "testing">;
  event: typeof schema.events.$inferSelect;
  communication: typeof schema.communicationSettings.$inferSelect | null;
  /** From the billing information, else the ticket-office login's email. */
  holderName: string;
  articles: OrderArticle[];
  /** cents */
  total: number;
}

/** The basket with its event and held articles (options = held selected nodes whose parent is the article). */
export async function loadOrder(database: Database, basketId: number): Promise<Order | null> {
  const { baskets, billingInformation, communicationSettings, events, frontendLogins, selectedNodes } = schema;
  const [row] = await database.db
    .select({
      basket: baskets,
      event: events,
      communication: communicationSettings,
      billing: billingInformation,
      loginEmail: frontendLogins.email,
    })
    .from(baskets)
    .innerJoin(events, eq(events.id, baskets.eventId))
    .leftJoin(communicationSettings, eq(communicationSettings.eventId, baskets.eventId))
    .leftJoin(billingInformation, eq(billingInformation.id, baskets.billingInformationId))
    .leftJoin(frontendLogins, eq(frontendLogins.id, baskets.createdById))
    .where(eq(baskets.id, basketId));
  if (!row) return null;

  const held = and(eq(selectedNodes.basketId, basketId), eq(selectedNodes.status, "held"));
  const articleRows = await database.db
    .select()
    .from(selectedNodes)
    .where(and(held, eq(selectedNodes.isArticle, true)))
    .orderBy(asc(selectedNodes.id));
  const optionRows = articleRows.length
    ? await database.db
        .select()
        .from(selectedNodes)
        .where(
          and(
            held,
            inArray(
              selectedNodes.parentId,
              articleRows.map((article) => article.id),
            ),
          ),
        )
        .orderBy(asc(selectedNodes.id))
    : [];

  const articles = articleRows.map((article): OrderArticle => {
    const options = optionRows
      .filter((option) => option.parentId === article.id)
      .map((option) => ({ id: option.id, title: option.title, price: option.price }));
    return {
      id: article.id,
      title: article.title,
      options,
      linePrice: options.reduce((sum, option) => sum + option.price, article.price),
    };
  });
  const billing = row.billing;
  return {
    basket: row.basket,
    event: row.event,
    communication: row.communication,
    holderName: billing ? `${billing.firstName} ${billing.lastName}`.trim() : (row.loginEmail ?? ""),
    articles,
    total: articles.reduce((sum, article) => sum + article.linePrice, 0),
  };
}

/**
 * An order of the event for previews and test mails: its first articles (one of them twice, as orders often
 * are), a placeholder buyer and reference. It has no row: id 0, so no payment of it exists and no ticket code
 * signed for it admits anyone (`checkTicketCode` finds no basket). `communication` is what the texts say.
 */
export async function sampleOrder(
  database: Database,
  sample: { eventId: number; communication: Order["communication"]; isTesting: boolean; buyerName: string },
): Promise<Order> {
  const event = await database.db.select().from(schema.events).where(eq(schema.events.id, sample.eventId)).get();
  if (!event) throw new Error(`event ${sample.eventId} not found`);
  const [first, ...others] = (await listArticles(database.db, event.id)).slice(0, 3);
  const picked = first ? [first, first, ...others] : [];
  const articles = picked.map((article, index) => ({
    id: index + 1,
    title: article.title,
    options: [],
    linePrice: article.price,
  }));
  return {
    basket: { id: 0, unikey: "SAMPLE-0000", testing: sample.isTesting },
    event,
    communication: sample.communication,
    holderName: sample.buyerName,
    articles,
    total: articles.reduce((sum, article) => sum + article.linePrice, 0),
  };
}

/** One ticket per article of the order, or only the article `itemId`. */
export function ticketDataOf(order: Order, itemId?: number): TicketData[] {
  const { basket, event } = order;
  const values = { event: event.frontendTitle, reference: basket.unikey, name: order.holderName };
  const organiserText = (language: Language, article: string) => {
    const text = order.communication?.[communicationField("pdfTicketText", language)];
    return text ? fillPlaceholders(text, { ...values, article }) : null;
  };
  return order.articles
    .filter((article) => itemId === undefined || article.id === itemId)
    .map((article) => ({
      claims: { eventId: event.id, basketId: basket.id, itemId: article.id },
      eventTitle: event.frontendTitle,
      eventStart: event.startDate,
      eventEnd: event.endDate,
      location: [event.location, event.locationAddress].filter((line) => line.trim() !== "").join("\n"),
      articleTitle: article.title,
      options: article.options.map(({ title, price }) => ({ title, price })),
      price: article.linePrice,
      holderName: order.holderName,
      basketReference: basket.unikey,
      isTesting: basket.testing,
      organiserTexts: { en: organiserText("en", article.title), fr: organiserText("fr", article.title) },
    }));
}

/**
 * What the PDF tickets of a basket need, one entry per held article (or only `itemId`); empty when the basket
 * or the article does not exist. The caller checks that the basket is validated and that the visitor may see it.
 */
export async function loadTicketData(database: Database, basketId: number, itemId?: number): Promise<TicketData[]> {
  const order = await loadOrder(database, basketId);
  return order ? ticketDataOf(order, itemId) : [];
}

/**
 * Whether a ticket's signed code is good for entry: genuine (else 400), its article still held in a validated
 * basket. The claims come from the code; the line's title, status and testing flag are null once it is gone.
 */
export async function checkTicketCode(
  database: Database,
  keys: Pick<TicketKeys, "publicKey">,
  code: string,
): Promise<TicketVerification> {
  const claims = verifyTicketCode(keys, code);
  if (!claims) throw invalid("errors.ticket_code_invalid");
  const row = await database.db
    .select({ item: schema.selectedNodes, basket: schema.baskets })
    .from(schema.selectedNodes)
    .innerJoin(schema.baskets, eq(schema.baskets.id, schema.selectedNodes.basketId))
    .where(and(eq(schema.selectedNodes.id, claims.itemId), eq(schema.baskets.id, claims.basketId)))
    .get();
  return {
    valid: row?.basket.status === "validated" && row.item.status === "held",
    ticket: {
      eventId: claims.eventId,
      basketId: claims.basketId,
      itemId: claims.itemId,
      title: row?.item.title ?? null,
      status: row?.basket.status ?? null,
      testing: row?.basket.testing ?? null,
    },
  };
}

/** The file name of an order's tickets as one PDF, in the confirmation mail and on download. */
export const ticketsFileName = (basketReference: string) => `tickets-${basketReference.replace(/[^\w-]/g, "")}.pdf`;

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

/** What a ticket's page needs: its data, in the buyer's language, with its claims signed into the QR code. */
export const pdfInputOf =
  (keys: TicketKeys, language: Language) =>
  ({ claims, organiserTexts, ...ticket }: TicketData): TicketPdfInput => ({
    ...ticket,
    language,
    organiserText: organiserTexts[language],
    ticketCode: createTicketCode(keys, claims),
  });

// Event times are shown where the events take place (prices are in CHF: Switzerland).
const TIME_ZONE = "Europe/Zurich";

/** `Saturday, 12 December 2026, 19:00–23:30`: what both ends share is shown once; date-only values show no time. */
export function formatEventDates(start: string, end: string, language: Language): string {
  const from = new Date(start);
  const to = new Date(end);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return `${start} – ${end}`;
  const isDateOnly = /^\d{4}-\d{2}-\d{2}$/.test(start) && /^\d{4}-\d{2}-\d{2}$/.test(end);
  const format = dateFormat(language, isDateOnly);
  return from <= to ? format.formatRange(from, to) : format.format(from);
}

// Building an Intl.DateTimeFormat costs about a millisecond: one per language and kind, for every page.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(language: Language, isDateOnly: boolean): Intl.DateTimeFormat {
  const key = `${language}:${isDateOnly}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language === "fr" ? "fr-CH" : "en-GB", {
      dateStyle: "full",
      ...(isDateOnly ? { timeZone: "UTC" } : { timeStyle: "short", timeZone: TIME_ZONE }),
    });
    dateFormats.set(key, format);
  }
  return format;
}

const dictionaries = { en, fr };

const PAGE = { width: 595.28, height: 841.89, margin: 50 }; // A4 in points
const QR_SIZE = 170;
const INK = "#1a1a1a";
const MUTED = "#666666";
const BAND = "#1f3a5f";
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

/** Several tickets in one PDF document, one page each, in the order given. */
export async function renderTicketsPdf(inputs: readonly TicketPdfInput[], options: TicketsPdfOptions = {}) {
  const chunks: Buffer[] = [];
  for await (const chunk of streamTicketsPdf(inputs, options)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
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
  const doc = new PDFDocument({
    size: "A4",
    margin: PAGE.margin,
    autoFirstPage: false,
    info: { Title: pdfText(t(title, { event: first.eventTitle })) },
    lang: first.language,
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
  const contentWidth = PAGE.width - 2 * PAGE.margin;

  // Header band: what the ticket is for.
  doc.rect(0, 0, PAGE.width, 120).fill(BAND);
  doc
    .fillColor("#ffffff")
    .font("Helvetica")
    .fontSize(11)
    .text(pdfText(t("ticket").toUpperCase()), left, 34, { characterSpacing: 2 });
  doc
    .font("Helvetica-Bold")
    .fontSize(22)
    .text(pdfText(input.eventTitle), left, 54, { width: contentWidth, height: 60, ellipsis: true });

  let y = 140;
  if (input.isTesting) {
    testingBand(doc, { x: left, y, width: contentWidth, text: t("testing"), fontSize: 11, inset: 0 });
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
  doc
    .moveTo(left, y)
    .lineTo(PAGE.width - PAGE.margin, y)
    .lineWidth(0.5)
    .strokeColor("#cccccc")
    .stroke();
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
    .text(codeLines.join("\n"), left, doc.y + 3, { width: contentWidth });
  doc
    .fillColor(MUTED)
    .font("Helvetica")
    .fontSize(9)
    .text(pdfText(t("scan_hint")), left, doc.y + 10, { width: contentWidth });

  if (input.organiserText?.trim()) {
    y = doc.y + 18;
    doc
      .moveTo(left, y)
      .lineTo(PAGE.width - PAGE.margin, y)
      .lineWidth(0.5)
      .strokeColor("#cccccc")
      .stroke();
    doc
      .fillColor(INK)
      .font("Helvetica")
      .fontSize(10)
      .text(pdfText(input.organiserText.trim()), left, y + 12, {
        width: contentWidth,
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

/**
 * The red band across a testing (preview) document, its text centred in white, `inset` from its sides; 26 points
 * high. The caller moves on below it.
 */
export function testingBand(
  doc: PDFKit.PDFDocument,
  band: { x: number; y: number; width: number; text: string; fontSize: number; inset: number },
) {
  doc.rect(band.x, band.y, band.width, 26).fill("#c0392b");
  doc
    .fillColor("#ffffff")
    .font("Helvetica-Bold")
    .fontSize(band.fontSize)
    .text(pdfText(band.text), band.x + band.inset, band.y + 8, { width: band.width - 2 * band.inset, align: "center" });
}

// pdfkit's built-in fonts only encode Windows-1252: Intl's narrow and thin spaces become spaces, emoji are
// dropped, and any other character they cannot draw becomes a visible "?" rather than a wrong glyph.
const WIN_ANSI_EXTRA = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";
export function pdfText(text: string): string {
  const spaced = text
    .normalize("NFC")
    .replace(/[\u2000-\u200a\u202f\u205f]/g, " ")
    .replace(/[\u2010\u2011]/g, "-");
  return [...spaced]
    .map((char) => {
      const code = char.codePointAt(0) ?? 0;
      if (char === "\n" || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return char;
      if (WIN_ANSI_EXTRA.includes(char)) return char;
      return /\p{Extended_Pictographic}/u.test(char) || ["\ufe0e", "\ufe0f", "\u200d"].includes(char) ? "" : "?";
    })
    .join("")
    .replace(/ +$/gm, "");
}
