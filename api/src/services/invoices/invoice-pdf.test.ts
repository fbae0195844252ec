import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, run, schema } from "@ticketing/db";
import en from "@ticketing/shared/i18n/en/invoice.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/invoice.json" with { type: "json" };
import { keyPaths } from "@ticketing/shared/i18n/translate";
import type { InvoiceDetail } from "@ticketing/shared/schemas/invoices";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  hasCommand,
  seedOrder,
  type TestDatabase,
  writeFrenchTitles,
} from "../tickets/tickets.fixtures.ts";
import { invoiceFileName, renderInvoicePdf } from "./invoice-pdf.ts";
import { presentInvoiceDetail } from "./invoice-views.ts";
import { writeInvoice } from "./invoice-writing.ts";

/** The PDF's text, as a reader copying it would get it (poppler's pdftotext), or null without poppler. */
function pdfToText(directory: string, name: string, pdf: Buffer): string | null {
  if (!hasCommand("pdftotext")) return null;
  const file = join(directory, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-layout", file, "-"]).toString();
}

const pageCount = (pdf: Buffer) => pdf.toString("latin1").match(/\/Type \/Page\b/g)?.length ?? 0;

describe("invoice texts", () => {
  it("has the same keys in English and French", () => {
    expect(keyPaths(fr).sort()).toEqual(keyPaths(en).sort());
  });
});

describe("the invoice PDF", () => {
  let test: TestDatabase;
  let invoice: InvoiceDetail;
  let creditNote: InvoiceDetail;
  let testing: InvoiceDetail;

  /** An invoice of the seeded order's held nodes (two articles, the first with two options: 85 + 0 + 3 + 35). */
  async function invoiceOf(basketId: number, testingBasket = false) {
    const { database } = test;
    const held = await database.db
      .select()
      .from(schema.selectedNodes)
      .where(eq(schema.selectedNodes.basketId, basketId))
      .all();
    const lines = held
      .filter((node) => node.status === "held")
      .map((node) => ({ selectedNodeId: node.id, title: node.title, amount: node.price }));
    const unit = await database.db
      .select({ unitId: schema.events.unitId })
      .from(schema.baskets)
      .innerJoin(schema.events, eq(schema.events.id, schema.baskets.eventId))
      .where(eq(schema.baskets.id, basketId))
      .get();
    return database.transaction(function* (tx) {
      return yield* writeInvoice(tx, {
        basket: { id: basketId, testing: testingBasket },
        unitId: unit?.unitId as number,
        amount: lines.reduce((sum, line) => sum + line.amount, 0),
        dueDate: "2026-11-24T12:00:00.000Z",
        resolvedAt: "2026-11-21T15:30:00.000Z",
        lines,
      });
    });
  }

  beforeAll(async () => {
    test = await createTestDatabase();
    const { database } = test;
    const order = await seedOrder(database);
    await database.transaction(function* (tx) {
      yield* run(
        tx
          .update(schema.units)
          .set({ name: "Association des Étudiants", address: "Esplanade 1\n1015 Lausanne", email: "caisse@agepoly.ch" })
          .run(),
      );
    });
    const original = await invoiceOf(order.basketId);
    const ball = order.articleIds[1] as number;
    const refund = await database.transaction(function* (tx) {
      return yield* writeInvoice(tx, {
        basket: { id: order.basketId, testing: false },
        unitId: original.unitId,
        amount: -3500,
        dueDate: null,
        resolvedAt: "2026-11-30T09:00:00.000Z",
        relatedInvoiceId: original.id,
        reason: "Cancelled by the organiser",
        isRefund: true,
        lines: [{ selectedNodeId: ball, title: "Ball only", amount: -3500 }],
      });
    });
    const testingOrder = await seedOrder(database, { testing: true });
    const testingInvoice = await invoiceOf(testingOrder.basketId, true);
    invoice = (await presentInvoiceDetail(database.db, original)) as InvoiceDetail;
    creditNote = (await presentInvoiceDetail(database.db, refund)) as InvoiceDetail;
    testing = (await presentInvoiceDetail(database.db, testingInvoice)) as InvoiceDetail;
  });
  afterAll(async () => test.dispose());

  it("lists each article with its options under it, and relates the credit note to its invoice both ways", () => {
    expect(invoice.lines.map((line) => [line.title, line.amount, line.isOption])).toEqual([
      ["Dinner and ball", 8500, false],
      ["Vegetarian menu", 0, true],
      ["Cloakroom", 300, true],
      ["Ball only", 3500, false],
    ]);
    expect(invoice).toMatchObject({ amount: 12300, status: "paid", isRefund: false, displayNumber: "1" });
    expect(invoice.relatedInvoices.map((other) => other.id)).toEqual([creditNote.id]);
    expect(creditNote).toMatchObject({
      amount: -3500,
      isRefund: true,
      displayNumber: "2",
      relatedInvoiceId: invoice.id,
    });
    expect(creditNote.relatedInvoices.map((other) => other.id)).toEqual([invoice.id]);
    // Another unit, testing: a sequence of its own.
    expect(testing).toMatchObject({ number: 1, displayNumber: "TEST-1", isTesting: true });
  });

  it("renders the invoice in English: the unit as issuer, the buyer, the lines with their options, CHF totals, paid", async () => {
    const pdf = await renderInvoicePdf(invoice, "en");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pageCount(pdf)).toBe(1);
    const text = pdfToText(test.directory, "invoice-en", pdf);
    if (text === null) return;
    for (const expected of [
      "Association des Étudiants",
      "Esplanade 1",
      "1015 Lausanne",
      "caisse@agepoly.ch",
      "INVOICE",
      "No. 1",
      "BILL TO",
      "Zoé Müller",
      "Avenue de la Gare 1",
      "1003 Lausanne",
      "Switzerland",
      "Date of issue",
      "Due date",
      "24 November 2026",
      "Winter Ball 2026",
      invoice.basket.reference,
      "All amounts in Swiss francs (CHF).",
      "Paid on 21 November 2026",
    ])
      expect(text).toContain(expected);
    // Each line with its amount on the same row; options marked and listed under their article.
    expect(text).toMatch(/Dinner and ball\s+CHF\s85\.00/);
    expect(text).toMatch(/\+ Vegetarian menu\s+CHF\s0\.00/);
    expect(text).toMatch(/\+ Cloakroom\s+CHF\s3\.00/);
    expect(text).toMatch(/Ball only\s+CHF\s35\.00/);
    expect(text).toMatch(/Total\s+CHF\s123\.00/);
    expect(text.indexOf("Dinner and ball")).toBeLessThan(text.indexOf("Vegetarian menu"));
    expect(text.indexOf("Cloakroom")).toBeLessThan(text.indexOf("Ball only"));
    expect(text).not.toContain("Forgotten option");
    expect(text).not.toContain("TEST");
  });

  it("renders it in French, amounts as the Swiss French write them", async () => {
    const text = pdfToText(test.directory, "invoice-fr", await renderInvoicePdf(invoice, "fr"));
    if (text === null) return;
    for (const expected of [
      "FACTURE",
      "N° 1",
      "FACTURÉ À",
      "Suisse",
      "Date d'émission",
      "Échéance",
      "24 novembre 2026",
      "Référence",
      "Événement",
      "Payée le 21 novembre 2026",
      "Tous les montants sont en francs suisses (CHF).",
    ])
      expect(text).toContain(expected);
    expect(text).toMatch(/Dinner and ball\s+85\.00\sCHF/);
    expect(text).toMatch(/Total\s+123\.00\sCHF/);
    expect(text).not.toContain("INVOICE");
  });

  it("names the event and the articles in the PDF's language, the English where no French was written (issue 34)", async () => {
    const order = await seedOrder(test.database);
    await writeFrenchTitles(test.database, order);
    const bilingual = (await presentInvoiceDetail(test.database.db, await invoiceOf(order.basketId))) as InvoiceDetail;
    const french = pdfToText(test.directory, "invoice-fr-titles", await renderInvoicePdf(bilingual, "fr"));
    const english = pdfToText(test.directory, "invoice-en-titles", await renderInvoicePdf(bilingual, "en"));
    if (french === null || english === null) return;
    expect(french).toMatch(/Dîner et bal\s+85\.00\sCHF/);
    expect(french).toMatch(/\+ Menu végétarien\s+0\.00\sCHF/);
    expect(french).toMatch(/\+ Cloakroom\s+3\.00\sCHF/);
    expect(french).toMatch(/Ball only\s+35\.00\sCHF/);
    expect(french).toContain("Bal d'hiver 2026");
    expect(english).toMatch(/Dinner and ball\s+CHF\s85\.00/);
    expect(english).toContain("Winter Ball 2026");
    expect(english).not.toContain("Dîner");
  });

  it("renders a refund as a credit note that names the original invoice and the reason, in both languages", async () => {
    const english = pdfToText(test.directory, "credit-en", await renderInvoicePdf(creditNote, "en"));
    const french = pdfToText(test.directory, "credit-fr", await renderInvoicePdf(creditNote, "fr"));
    if (english === null || french === null) return;
    for (const expected of [
      "CREDIT NOTE",
      "No. 2",
      "Refers to invoice 1",
      "Reason: Cancelled by the organiser",
      "Refunded on 30 November 2026",
    ])
      expect(english).toContain(expected);
    expect(english).toMatch(/Ball only\s+-CHF\s35\.00/);
    expect(english).toMatch(/Total refunded\s+-CHF\s35\.00/);
    expect(french).toMatch(/Total remboursé\s+-35\.00\sCHF/);
    expect(english).not.toContain("Due date");
    for (const expected of ["NOTE DE CRÉDIT", "Se rapporte à la facture 1", "Motif : Cancelled by the organiser"])
      expect(french).toContain(expected);
  });

  it("marks a testing invoice TEST, numbered in its own sequence, and says when one is pending or cancelled", async () => {
    const text = pdfToText(test.directory, "testing", await renderInvoicePdf(testing, "en"));
    const pending = pdfToText(
      test.directory,
      "pending",
      await renderInvoicePdf({ ...invoice, status: "pending", resolvedAt: null }, "en"),
    );
    const cancelled = pdfToText(
      test.directory,
      "cancelled",
      await renderInvoicePdf({ ...invoice, status: "cancelled", resolvedAt: null }, "fr"),
    );
    if (text === null || pending === null || cancelled === null) return;
    expect(text).toContain("No. TEST-1");
    expect(text).toContain("TEST – a testing (preview) order: this document is not a valid invoice");
    expect(pending).toContain("Payment pending – due by 24 November 2026");
    expect(pending).not.toContain("Paid on");
    expect(cancelled).toContain("Annulée – rien n'est dû sur cette facture");
  });

  it("goes on to a second page for a long order, each page numbered", async () => {
    const lines = Array.from({ length: 45 }, (_, index) => ({
      id: index + 1,
      selectedNodeId: index + 1,
      title: `Seat ${index + 1}`,
      titleFr: "",
      amount: 2500,
      isOption: false,
    }));
    const pdf = await renderInvoicePdf({ ...invoice, lines, amount: 112_500 }, "en");
    const text = pdfToText(test.directory, "long", pdf);
    expect(pageCount(pdf)).toBe(2);
    if (text === null) return;
    expect(text).toContain("Seat 45");
    expect(text).toContain("Page 2 of 2");
    expect(text).toContain("Invoice No. 1 – Association des Étudiants");
    expect(text).toMatch(/Total\s+CHF\s1.125\.00/);
  });

  it("names the file after the unit and the number, in ASCII", () => {
    expect(invoiceFileName(invoice)).toBe("invoice-association-des-etudiants-1.pdf");
    expect(invoiceFileName(creditNote)).toBe("credit-note-association-des-etudiants-2.pdf");
    expect(invoiceFileName(testing)).toBe("invoice-student-association-TEST-1.pdf");
  });
});
