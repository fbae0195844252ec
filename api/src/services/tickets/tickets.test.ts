import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import en from "@ticketing/shared/i18n/en/ticket.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/ticket.json" with { type: "json" };
import { keyPaths } from "@ticketing/shared/i18n/translate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatEventDates } from "./event-dates.ts";
import { createTicketCode, newTicketSigningKey, ticketKeysOf } from "./ticket-codes.ts";
import { renderTicketPdf } from "./ticket-pdf.ts";
import {
  createTestDatabase,
  hasCommand,
  type SeededOrder,
  seedOrder,
  type TestDatabase,
  writeFrenchTitles,
} from "./tickets.fixtures.ts";
import { loadTicketData, pdfInputOf, type TicketPdfInput } from "./tickets.ts";

const scratch = mkdtempSync(join(tmpdir(), "tickets-"));
const keys = ticketKeysOf(newTicketSigningKey());
const code = createTicketCode(keys, { eventId: 1, basketId: 22, itemId: 333 });
const input: TicketPdfInput = {
  language: "fr",
  eventTitle: "Bal d'hiver 2026",
  eventStart: "2026-12-12T18:00:00.000Z",
  eventEnd: "2026-12-12T22:30:00.000Z",
  location: "Rolex Learning Center\nRoute Cantonale, 1015 Lausanne",
  articleTitle: "Dîner et bal",
  options: [
    { title: "Menu végétarien", price: 0 },
    { title: "Vestiaire", price: 300 },
  ],
  price: 8800,
  holderName: "Zoé Müller",
  basketReference: "K7Q2XM",
  isTesting: false,
  ticketCode: code,
  organiserText: "Ouverture des portes à 18 h 30. 🎉",
};

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("ticket texts", () => {
  it("has the same keys in English and French", () => {
    expect(keyPaths(fr).sort()).toEqual(keyPaths(en).sort());
  });
});

describe("formatEventDates", () => {
  it("shows the day once for an evening, in Swiss time", () => {
    const english = formatEventDates(input.eventStart, input.eventEnd, "en");
    expect(english).toMatch(/^Saturday,?\s12\sDecember\s2026,?\s(at\s)?19:00\s?[–-]\s?23:30$/);
    expect(english.match(/December/g)).toHaveLength(1);
    expect(formatEventDates(input.eventStart, input.eventEnd, "fr")).toMatch(
      /^samedi,? 12 décembre 2026.* 19:00\s?[–-]\s?23:30$/,
    );
  });

  it("shows date-only events without a time", () => {
    const range = formatEventDates("2026-12-12", "2026-12-13", "en");
    expect(range).toMatch(/^Saturday,?\s12\s.*Sunday,?\s13\sDecember\s2026$/);
    expect(range).not.toContain(":");
  });
});

describe("renderTicketPdf", () => {
  it("renders one page with the ticket's texts and a QR code carrying exactly the ticket code", async () => {
    const pdf = await renderTicketPdf(input);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.toString("latin1").match(/\/Type \/Page\b/g)).toHaveLength(1);
    const file = join(scratch, "ticket.pdf");
    writeFileSync(file, pdf);

    if (hasCommand("pdftotext")) {
      const text = execFileSync("pdftotext", ["-raw", file, "-"]).toString();
      for (const expected of [
        "Bal d'hiver 2026",
        "Dîner et bal",
        "Vestiaire",
        "Zoé Müller",
        "K7Q2XM",
        "TITULAIRE DU BILLET",
        "Ouverture des portes",
      ]) {
        expect(text).toContain(expected);
      }
      expect(text.replace(/\s/g, "")).toContain(code);
      expect(text).toMatch(/88\.00\sCHF/);
    }
    if (hasCommand("pdftoppm") && hasCommand("zbarimg")) {
      execFileSync("pdftoppm", ["-png", "-r", "100", "-singlefile", file, join(scratch, "ticket")], {
        stdio: "ignore",
      });
      const decoded = execFileSync("zbarimg", ["--quiet", "--raw", join(scratch, "ticket.png")], {
        stdio: ["ignore", "pipe", "ignore"],
      })
        .toString()
        .trim();
      expect(decoded).toBe(code);
    }
  });

  it("marks a testing basket's ticket as not valid for entry", async () => {
    const pdf = await renderTicketPdf({ ...input, language: "en", isTesting: true });
    const file = join(scratch, "testing.pdf");
    writeFileSync(file, pdf);
    if (hasCommand("pdftotext")) {
      expect(execFileSync("pdftotext", [file, "-"]).toString()).toContain("TEST TICKET: not valid for entry");
    }
  });
});

describe("loadTicketData", () => {
  let test: TestDatabase;
  let order: SeededOrder;
  beforeAll(async () => {
    test = await createTestDatabase();
    order = await seedOrder(test.database, {
      communication: {
        pdfTicketTextEn: "{{name}}: bring your student card for {{article}}.",
        pdfTicketTextFr: "Apportez votre carte d'étudiant, {{name}}.",
      },
    });
  });
  afterAll(() => test.dispose());

  it("gives one ticket per held article, with its held options, its line price and the organiser's text in each language", async () => {
    const tickets = await loadTicketData(test.database, order.basketId);
    const read = tickets.map(pdfInputOf(keys, "en"));
    expect(read.map((ticket) => [ticket.articleTitle, ticket.options, ticket.price])).toEqual([
      [
        "Dinner and ball",
        [
          { title: "Vegetarian menu", price: 0 },
          { title: "Cloakroom", price: 300 },
        ],
        8800,
      ],
      ["Ball only", [], 3500],
    ]);
    expect(read[0]?.eventTitle).toBe("Winter Ball 2026");
    expect(tickets[0]).toMatchObject({
      claims: { eventId: order.eventId, basketId: order.basketId, itemId: order.articleIds[0] },
      location: "Rolex Learning Center\nRoute Cantonale, 1015 Lausanne",
      holderName: "Zoé Müller",
      isTesting: false,
      organiserTexts: {
        en: "Zoé Müller: bring your student card for Dinner and ball.",
        fr: "Apportez votre carte d'étudiant, Zoé Müller.",
      },
    });
  });

  it("gives only the article asked for, and nothing for an unknown basket or article", async () => {
    const [second] = order.articleIds.slice(1);
    const tickets = await loadTicketData(test.database, order.basketId, second);
    expect(tickets.map((ticket) => ticket.claims.itemId)).toEqual([second]);
    expect(await loadTicketData(test.database, order.basketId, 999_999)).toEqual([]);
    expect(await loadTicketData(test.database, 999_999)).toEqual([]);
  });

  it("feeds renderTicketPdf", async () => {
    const [ticket] = await loadTicketData(test.database, order.basketId);
    if (!ticket) throw new Error("no ticket");
    const pdf = await renderTicketPdf(pdfInputOf(keys, "en")(ticket));
    expect(pdf.subarray(0, 4).toString()).toBe("%PDF");
  });
});

describe("a ticket in the buyer's language (issue 34)", () => {
  let test: TestDatabase;
  let order: SeededOrder;
  beforeAll(async () => {
    test = await createTestDatabase();
    order = await seedOrder(test.database, {
      // The French ticket text left empty: a French buyer reads the organiser's English, not nothing.
      communication: { pdfTicketTextEn: "Doors open at 18:30 for {{article}}.", pdfTicketTextFr: "" },
    });
    await writeFrenchTitles(test.database, order);
  });
  afterAll(() => test.dispose());

  it("reads the event's and the articles' titles in French, the English where no French was written", async () => {
    const tickets = await loadTicketData(test.database, order.basketId);
    const [dinner, ball] = tickets.map(pdfInputOf(keys, "fr"));
    expect(dinner).toMatchObject({
      eventTitle: "Bal d'hiver 2026",
      articleTitle: "Dîner et bal",
      options: [
        { title: "Menu végétarien", price: 0 },
        { title: "Cloakroom", price: 300 },
      ],
      organiserText: "Doors open at 18:30 for Dîner et bal.",
    });
    expect(ball?.articleTitle).toBe("Ball only");
    const [english] = tickets.map(pdfInputOf(keys, "en"));
    expect(english).toMatchObject({ eventTitle: "Winter Ball 2026", articleTitle: "Dinner and ball" });
  });

  it("prints the French titles with their accents on the PDF", async (context) => {
    if (!hasCommand("pdftotext")) return context.skip();
    const [ticket] = await loadTicketData(test.database, order.basketId);
    if (!ticket) throw new Error("no ticket");
    const file = join(scratch, "ticket-fr.pdf");
    writeFileSync(file, await renderTicketPdf(pdfInputOf(keys, "fr")(ticket)));
    const text = execFileSync("pdftotext", [file, "-"]).toString();
    expect(text).toContain("Dîner et bal");
    expect(text).toContain("Menu végétarien");
    expect(text).toContain("Bal d'hiver 2026");
    expect(text).not.toContain("Dinner and ball");
  });
});
