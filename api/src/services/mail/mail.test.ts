import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Database, type Driver, schema } from "@ticketing/db";
import en from "@ticketing/shared/i18n/en/email.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/email.json" with { type: "json" };
import { keyPaths } from "@ticketing/shared/i18n/translate";
import { beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../lib/log.ts";
import { ticketKeysOf, verifyTicketCode } from "../tickets/ticket-codes.ts";
import {
  addArticles,
  hasCommand,
  qrCodesOf,
  seedOrder,
  type TestDatabase,
  writeFrenchTitles,
} from "../tickets/tickets.fixtures.ts";
import { deliverPendingMails } from "./delivery.ts";
import { type MailTestConfig, outboxRow, recordingTransport, useOutboxDatabase } from "./mail.fixtures.ts";
import { enqueueMail } from "./queue.ts";
import { MAX_ATTACHED_TICKETS } from "./templates/order-mails.ts";
import { renderMail } from "./templates/registry.ts";
import { createMailTransport } from "./transport.ts";

/** The signed order link's token (lib/order-tokens.ts): basket id, expiry, HMAC. */
const ORDER_TOKEN = String.raw`\d+\.\d+\.[0-9a-f]{64}`;

function enqueueOrderConfirmation(database: Database, basketId: number, language: "en" | "fr" = "en") {
  return database.transaction(function* (tx) {
    return yield* enqueueMail(tx, {
      kind: "order_confirmation",
      to: "zoe@example.org",
      language,
      payload: { basket_id: basketId },
    });
  });
}

describe("email texts", () => {
  it("has the same keys in English and French", () => {
    expect(keyPaths(fr).sort()).toEqual(keyPaths(en).sort());
  });
});

describe.each<Driver>(["better-sqlite3", "libsql"])("mail outbox on %s", (driver) => {
  const outbox = useOutboxDatabase(driver);
  let test: TestDatabase;
  let database: Database;
  let config: MailTestConfig;
  beforeAll(() => {
    ({ test, database, config } = outbox);
  });

  it("writes an order confirmation as an .eml with the tickets in one PDF, a page each, and logs its file, not its link", async () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => lines.push(line) } });
    const order = await seedOrder(database);
    const mail = await enqueueOrderConfirmation(database, order.basketId);

    const report = await deliverPendingMails(database, createMailTransport(config, logger), config);

    expect(report).toEqual({ sent: 1, failed: 0 });
    const files = readdirSync(join(config.dataDir, "mail")).filter((file) =>
      file.endsWith(`-${mail.id}-order_confirmation.eml`),
    );
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}T\d{6}Z-\d+-order_confirmation\.eml$/);
    // nodemailer 7 writes CRLF line ends whatever `newline` says (RFC 5322's own line ends, fine for mail clients).
    const eml = readFileSync(join(config.dataDir, "mail", files[0] ?? ""), "utf8").replace(/\r\n/g, "\n");
    expect(eml).toMatch(/^Subject: Your tickets for Winter Ball 2026$/m);
    expect(eml).toMatch(/^To: zoe@example\.org$/m);
    // The same Message-ID whenever this row is sent: a mailbox can tell a mail sent again after a crash.
    expect(eml).toContain(`Message-ID: <mail-${mail.id}.`);
    expect(eml).toMatch(/^Message-ID: <mail-\d+\.\d{8}T\d{6,9}Z@example\.org>$/m);

    const [reference] = /K7Q2\w+/.exec(eml) ?? [];
    const attachments = pdfAttachments(eml);
    expect(attachments.map((attachment) => attachment.filename)).toEqual([`tickets-${reference}.pdf`]);
    const [attachment] = attachments;
    if (!attachment) throw new Error("no attachment");
    expect(attachment.content.subarray(0, 4).toString()).toBe("%PDF");
    expect(pageCount(attachment.content)).toBe(2);
    const tickets = order.articleIds.map((itemId) => ({ eventId: order.eventId, basketId: order.basketId, itemId }));
    const keys = ticketKeysOf(config.ticketSigningKey);
    expect(qrCodesOf(attachment.content).map((code) => verifyTicketCode(keys, code))).toEqual(tickets);
    if (hasCommand("pdftotext")) {
      const file = join(test.directory, attachment.filename);
      writeFileSync(file, attachment.content);
      const text = execFileSync("pdftotext", ["-raw", file, "-"]).toString();
      // Each page prints its code under its label, over two lines (-raw: keep a "-" that ends a line).
      const codes = [...text.matchAll(/TICKET CODE\n((?:[\w.-]+\n)+)/g)].map((match) =>
        (match[1] ?? "").replace(/\s/g, ""),
      );
      expect(codes.map((code) => verifyTicketCode(keys, code))).toEqual(tickets);
    }

    // The order link is a key to the order: the line names the file that holds it, and leaves it out.
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      msg: "mail written",
      mail: mail.id,
      kind: "order_confirmation",
      file: join(config.dataDir, "mail", files[0] ?? ""),
    });
    expect(lines[0]).not.toMatch(new RegExp(ORDER_TOKEN));
    expect(lines[0]).not.toContain("/orders/");

    const row = await outboxRow(database, mail.id);
    expect(row).toMatchObject({
      status: "sent",
      subject: "Your tickets for Winter Ball 2026",
      attempts: 0,
      nextAttemptAt: null,
    });
    expect(row.sentAt).not.toBeNull();
  });

  it("renders the French confirmation with the organiser's subject, a preview link for a testing basket, and no PDF when disabled", async () => {
    const order = await seedOrder(database, {
      testing: true,
      communication: { orderConfirmationSubjectFr: "Vos places pour {{event}}", isPdfTicketEnabled: false },
    });
    const mail = await renderMail(
      { database, config },
      { kind: "order_confirmation", language: "fr", payload: { basket_id: order.basketId } },
    );
    expect(mail.subject).toBe("Vos places pour Winter Ball 2026");
    expect(mail.attachments).toEqual([]);
    expect(mail.text).toContain("Bonjour Zoé Müller,");
    expect(mail.text).toContain("commande de test");
    expect(mail.text).toMatch(/- Dinner and ball : 88\.00\sCHF/);
    expect(mail.text).toMatch(/Total : 123\.00\sCHF/);
    expect(mail.text).toMatch(
      /http:\/\/localhost:3000\/tickets\/preview\/winter-ball-[a-z0-9]+\/orders\/\d+\.\d+\.[0-9a-f]{64}/,
    );
    expect(mail.html).toContain("Zoé Müller");
  });

  it("renders the organiser's own body, with its placeholders, above the order", async () => {
    const order = await seedOrder(database, {
      communication: { orderConfirmationBodyEn: "Dear {{name}},\n\nSee you at <the> ball!" },
    });
    const mail = await renderMail(
      { database, config },
      { kind: "order_confirmation", language: "en", payload: { basket_id: order.basketId } },
    );
    expect(mail.subject).toBe("Your tickets for Winter Ball 2026");
    expect(mail.text.startsWith("Dear Zoé Müller,\n\nSee you at <the> ball!\n\nYour order\n- Dinner and ball")).toBe(
      true,
    );
    expect(mail.html).toContain("See you at &#60;the&#62; ball!");
    expect(mail.attachments).toHaveLength(1);
  });

  it("names the event and the articles in the buyer's language, the English where no French was written (issue 34)", async () => {
    const order = await seedOrder(database, {
      // Only the English signature is written: a French buyer reads it rather than ours.
      communication: { signatureEn: "The {{event}} team" },
    });
    await writeFrenchTitles(database, order);
    await database.db
      .insert(schema.selectedNodes)
      .values({ basketId: order.basketId, isArticle: true, title: "Day pass", titleFr: "Pass journée", price: 2000 });
    const confirmation = (language: "en" | "fr") =>
      renderMail(
        { database, config },
        { kind: "order_confirmation", language, payload: { basket_id: order.basketId } },
      );

    const french = await confirmation("fr");
    expect(french.subject).toBe("Vos billets pour Bal d'hiver 2026");
    expect(french.text).toMatch(/- Pass journée : 20\.00\sCHF/);
    expect(french.text).toMatch(/- Dîner et bal : 88\.00\sCHF\n {4}Menu végétarien\n {4}Cloakroom/);
    expect(french.text).toMatch(/- Ball only : 35\.00\sCHF/);
    expect(french.text).toContain("The Bal d'hiver 2026 team");
    expect(french.html).toContain("Pass journée");
    expect(french.text).not.toContain("Day pass");
    const english = await confirmation("en");
    expect(english.subject).toBe("Your tickets for Winter Ball 2026");
    expect(english.text).toMatch(/- Day pass: CHF\s20\.00/);
    expect(english.text).toContain("The Winter Ball 2026 team");
    expect(english.text).not.toMatch(/Pass journée|Dîner|Bal d'hiver/);

    // The tickets attached read the same titles.
    const [pdf] = french.attachments;
    if (!pdf || !hasCommand("pdftotext")) return;
    const file = join(test.directory, "tickets-fr.pdf");
    writeFileSync(file, pdf.content);
    const text = execFileSync("pdftotext", [file, "-"]).toString();
    expect(text).toContain("Pass journée");
    expect(text).toContain("Dîner et bal");
  });

  it("sends a 2,500-ticket order as one mail of bounded size, at once, linking to its tickets", async () => {
    const order = await seedOrder(database);
    // 2,000 of one article, and 498 each alone (seats, say): 501 lines to list.
    await addArticles(database, order.basketId, 2_000);
    await addArticles(database, order.basketId, 498, (index) => `Seat ${index + 1}`);
    const mail = await enqueueOrderConfirmation(database, order.basketId);
    const transport = recordingTransport();

    const started = performance.now();
    await deliverPendingMails(database, transport, config);
    const milliseconds = Math.round(performance.now() - started);

    const [sent] = transport.sent;
    if (!sent) throw new Error("nothing sent");
    const size = sent.text.length + sent.html.length + sent.attachments.reduce((sum, a) => sum + a.content.length, 0);
    console.info(`[mail] 2,500-ticket confirmation: ${size} bytes in ${milliseconds} ms (${driver})`);
    expect(sent.id).toBe(mail.id);
    // At once: no PDF drawn, 2,500 tickets or not (its time is printed above, not asserted: a busy machine is slow).
    expect(sent.attachments).toEqual([]);
    expect(size).toBeLessThan(20_000);
    // Identical articles on one line, 50 lines at most; Swiss grouping: an apostrophe, typographic or not.
    expect(sent.text).toMatch(/- 2['’]000 × Entry: CHF\s50['’]000\.00/);
    expect(sent.text).toContain("- Seat 47: CHF");
    expect(sent.text).not.toContain("Seat 48:");
    expect(sent.text).toContain("… and 451 more articles, listed on your order page\nTotal: CHF");
    expect(sent.html).toContain("… and 451 more articles, listed on your order page</td></tr>");
    expect(sent.text).toMatch(
      /Your 2['’]500 tickets are too many to attach to an email: download them from your order page below/,
    );
    expect(sent.text).toMatch(
      /Download your tickets: http:\/\/localhost:3000\/tickets\/winter-ball-\w+\/orders\/\d+\.\d+\.[0-9a-f]{64}/,
    );
    expect(sent.html).toContain(">Download your tickets</a>");
  });

  it(`attaches up to ${MAX_ATTACHED_TICKETS} tickets as one PDF, and links to them above`, async () => {
    const order = await seedOrder(database);
    await addArticles(database, order.basketId, MAX_ATTACHED_TICKETS - 2);
    const render = (language: "en" | "fr") =>
      renderMail(
        { database, config },
        { kind: "order_confirmation", language, payload: { basket_id: order.basketId } },
      );

    const started = performance.now();
    const attached = await render("en");
    const milliseconds = Math.round(performance.now() - started);
    const [pdf] = attached.attachments;
    if (!pdf) throw new Error("no attachment");
    console.info(
      `[mail] ${MAX_ATTACHED_TICKETS} tickets: one PDF of ${pdf.content.length} bytes in ${milliseconds} ms`,
    );
    expect(attached.attachments).toHaveLength(1);
    expect(pageCount(pdf.content)).toBe(MAX_ATTACHED_TICKETS);
    expect(pdf.content.length).toBeLessThan(MAX_ATTACHED_TICKETS * 8_000);
    expect(attached.text).toContain("Your tickets are attached to this email as one PDF file, one page per ticket.");
    expect(attached.text).toContain("View your order: http://localhost:3000/tickets/");

    await addArticles(database, order.basketId, 1);
    const linked = await render("fr");
    expect(linked.attachments).toEqual([]);
    expect(linked.text).toContain(
      `Vos ${MAX_ATTACHED_TICKETS + 1} billets sont trop nombreux pour être joints à un e-mail : téléchargez-les`,
    );
    expect(linked.text).toMatch(
      /Télécharger vos billets : http:\/\/localhost:3000\/tickets\/winter-ball-\w+\/orders\/\d+\.\d+\.[0-9a-f]{64}/,
    );
  });

  it("renders the short mails with their link", async () => {
    const login = await renderMail(
      { database, config },
      {
        kind: "trusted_email_login",
        language: "fr",
        payload: { link: "http://localhost:3000/tickets/ball/login/verify/3/abc", event_title: "Bal" },
      },
    );
    expect(login.subject).toBe("Votre lien de connexion pour Bal");
    expect(login.text).toContain("http://localhost:3000/tickets/ball/login/verify/3/abc");
    const verify = await renderMail(
      { database, config },
      { kind: "register_verify", language: "en", payload: { link: "http://localhost:3000/admin/verify/x" } },
    );
    expect(verify.subject).toBe("Confirm your email address");
    expect(verify.html).toContain('href="http://localhost:3000/admin/verify/x"');
  });
});

/** How many pages a PDF of ours has (pdfkit writes one `/Type /Page` object a page). */
function pageCount(pdf: Buffer): number {
  return pdf.toString("latin1").match(/\/Type \/Page\b/g)?.length ?? 0;
}

/** The PDF parts of a raw message (nodemailer writes them base64-encoded). */
function pdfAttachments(eml: string): { filename: string; content: Buffer }[] {
  const parts = eml.split(/^--\S+$/m);
  return parts
    .filter((part) => /^Content-Type: application\/pdf/m.test(part))
    .map((part) => {
      const filename = /filename=("?)([^"\n]+)\1$/m.exec(part)?.[2] ?? "";
      const body = part.split(/\n\n/).slice(1).join("").replace(/\s/g, "");
      return { filename, content: Buffer.from(body, "base64") };
    });
}
