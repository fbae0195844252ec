// The A4 page the API's PDFs (tickets, invoices) are drawn on: its size and margins, the ink, the document's
// setup, a rule across the page, the red band of a testing document, and text the built-in fonts can draw.
import type { Readable } from "node:stream";
import type { Language } from "@ticketing/shared/constants";
import PDFDocument from "pdfkit";

export const PAGE = { width: 595.28, height: 841.89, margin: 50 }; // A4 in points
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
export const INK = "#1a1a1a";
export const MUTED = "#666666";
/** The dark blue of a ticket's header band and an invoice's title. */
export const ACCENT = "#1f3a5f";
const RULE = "#cccccc";

/**
 * A new A4 document in `language`, titled (and authored) in its metadata. `autoFirstPage: false` leaves adding
 * pages to the caller; `bufferPages` keeps them all open to write on later (page numbers).
 */
export function createA4Document(setup: {
  title: string;
  author?: string;
  language: Language;
  autoFirstPage?: false;
  bufferPages?: true;
}): PDFKit.PDFDocument {
  return new PDFDocument({
    size: "A4",
    margin: PAGE.margin,
    ...(setup.autoFirstPage === false ? { autoFirstPage: false } : {}),
    ...(setup.bufferPages ? { bufferPages: true } : {}),
    info: { Title: pdfText(setup.title), ...(setup.author === undefined ? {} : { Author: pdfText(setup.author) }) },
    lang: setup.language,
  });
}

/** The whole document of a PDF stream, once it ends. */
export async function pdfBuffer(doc: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of doc) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A thin rule across the page, between the margins, at `y`. */
export function rule(doc: PDFKit.PDFDocument, y: number, colour = RULE) {
  doc
    .moveTo(PAGE.margin, y)
    .lineTo(PAGE.width - PAGE.margin, y)
    .lineWidth(0.5)
    .strokeColor(colour)
    .stroke();
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
