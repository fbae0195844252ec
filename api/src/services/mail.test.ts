import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Database, type Driver, eq, schema } from "@ticketing/db";
import en from "@ticketing/shared/i18n/en/email.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/email.json" with { type: "json" };
import { keyPaths } from "@ticketing/shared/i18n/translate";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createMailTransport,
  deliverPendingMails,
  enqueueMail,
  MAX_MAIL_ATTEMPTS,
  type MailTransport,
  type OutgoingMail,
  startMailWorker,
} from "./mail.ts";
import { renderMail } from "./mail-templates.ts";
import { loadTicketKeys, verifyTicketCode } from "./ticket-codes.ts";
import { createTestDatabase, hasCommand, seedOrder, type TestDatabase } from "./tickets.fixtures.ts";

const { mailOutbox } = schema;

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

function enqueueResets(database: Database, count: number) {
  return database.transaction(function* (tx) {
    const ids: number[] = [];
    for (let index = 0; index < count; index++) {
      const mail = yield* enqueueMail(tx, {
        kind: "password_reset",
        to: `user${index}@example.org`,
        language: "en",
        payload: { link: `http://localhost:3000/admin/reset/${index}` },
      });
      ids.push(mail.id);
    }
    return ids;
  });
}

async function outboxRow(database: Database, id: number) {
  const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  if (!row) throw new Error(`no mail ${id}`);
  return row;
}

/** A transport that remembers what it was given, taking a little time like a real one. */
function recordingTransport(): MailTransport & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return {
    sent,
    async send(mail) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      sent.push(mail);
    },
  };
}

describe("email texts", () => {
  it("has the same keys in English and French", () => {
    expect(keyPaths(fr).sort()).toEqual(keyPaths(en).sort());
  });
});

describe.each<Driver>(["better-sqlite3", "libsql"])("mail outbox on %s", (driver) => {
  let test: TestDatabase;
  let database: Database;
  let config: {
    dataDir: string;
    publicUrl: string;
    smtpUrl: undefined;
    mailFrom: string;
    logMails: boolean;
  };
  beforeAll(async () => {
    test = await createTestDatabase(driver);
    database = test.database;
    config = {
      dataDir: test.directory,
      publicUrl: "http://localhost:3000",
      smtpUrl: undefined,
      mailFrom: "Ticketing <no-reply@example.org>",
      logMails: true,
    };
  });
  afterAll(() => test.dispose());
  afterEach(async () => {
    vi.restoreAllMocks();
    // Each test starts with an empty outbox.
    await database.transaction(function* (tx) {
      yield tx.delete(mailOutbox).run();
    });
  });

  it("writes an order confirmation as an .eml with one PDF ticket per article, and logs its link", async () => {
    const log = vi.spyOn(console, "info").mockImplementation(() => undefined);
    const order = await seedOrder(database);
    const mail = await enqueueOrderConfirmation(database, order.basketId);

    const report = await deliverPendingMails(database, createMailTransport(config), config);

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

    const attachments = pdfAttachments(eml);
    expect(attachments.map((attachment) => attachment.filename)).toEqual(
      order.articleIds.map((id) => `ticket-${id}.pdf`),
    );
    const keys = loadTicketKeys(config.dataDir);
    for (const [index, attachment] of attachments.entries()) {
      expect(attachment.content.subarray(0, 4).toString()).toBe("%PDF");
      if (hasCommand("pdftotext")) {
        const file = join(test.directory, attachment.filename);
        writeFileSync(file, attachment.content);
        const text = execFileSync("pdftotext", ["-raw", file, "-"]).toString();
        // The code is printed under its label, over two lines (-raw: keep a "-" that ends a line).
        const code = (/TICKET CODE\n((?:[\w.-]+\n)+)/.exec(text)?.[1] ?? "").replace(/\s/g, "");
        const claims = verifyTicketCode(keys, code);
        expect(claims).toEqual({ eventId: order.eventId, basketId: order.basketId, itemId: order.articleIds[index] });
      }
    }

    const completion = `http://localhost:3000/tickets/winter-ball-`;
    expect(log).toHaveBeenCalledTimes(1);
    const line = String(log.mock.calls[0]?.[0]);
    expect(line).toContain("Your tickets for Winter Ball 2026");
    expect(line).toContain("zoe@example.org");
    expect(line).toMatch(new RegExp(`${completion}[a-z0-9]+/completion$`));

    const row = await outboxRow(database, mail.id);
    expect(row).toMatchObject({
      status: "sent",
      subject: "Your tickets for Winter Ball 2026",
      attempts: 0,
      nextAttemptAt: null,
    });
    expect(row.sentAt).not.toBeNull();
  });

  it("does not queue a mail whose transaction fails", async () => {
    await expect(
      database.transaction(function* (tx) {
        yield* enqueueMail(tx, {
          kind: "register_verify",
          to: "a@example.org",
          language: "en",
          payload: { link: "http://x.test/v" },
        });
        throw new Error("the registration failed");
      }),
    ).rejects.toThrow("the registration failed");
    expect(await database.db.select().from(mailOutbox)).toEqual([]);
  });

  it("refuses a payload that does not fit its kind", async () => {
    await expect(
      database.transaction(function* (tx) {
        yield* enqueueMail(tx, {
          kind: "order_confirmation",
          to: "a@example.org",
          language: "en",
          // @ts-expect-error: the payload of an order confirmation is a basket id
          payload: { link: "http://x.test" },
        });
      }),
    ).rejects.toThrow();
  });

  it("retries a failed send after 1, 2, 4 … minutes and gives up after 8 attempts, never sending twice", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const [id = 0] = await enqueueResets(database, 1);
    let clock = new Date("2026-11-21T10:00:00.000Z");
    const now = () => clock;
    let calls = 0;
    const broken: MailTransport = {
      async send() {
        calls += 1;
        throw new Error("550 mailbox unavailable");
      },
    };

    expect(await deliverPendingMails(database, broken, config, { now })).toEqual({ sent: 0, failed: 1 });
    let row = await outboxRow(database, id);
    expect(row).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "550 mailbox unavailable",
      nextAttemptAt: "2026-11-21T10:01:00.000Z",
    });

    // Not due yet: nothing is sent.
    clock = new Date("2026-11-21T10:00:59.000Z");
    expect(await deliverPendingMails(database, broken, config, { now })).toEqual({ sent: 0, failed: 0 });
    expect(calls).toBe(1);

    const delays: number[] = [];
    while (row.status === "pending") {
      const due = new Date(row.nextAttemptAt ?? "");
      clock = due;
      await deliverPendingMails(database, broken, config, { now });
      row = await outboxRow(database, id);
      if (row.nextAttemptAt) delays.push((new Date(row.nextAttemptAt).getTime() - due.getTime()) / 60_000);
    }
    expect(delays).toEqual([2, 4, 8, 16, 32, 64]);
    expect(calls).toBe(MAX_MAIL_ATTEMPTS);
    expect(row).toMatchObject({ status: "failed", attempts: MAX_MAIL_ATTEMPTS, nextAttemptAt: null, sentAt: null });

    clock = new Date("2026-11-30T00:00:00.000Z");
    const working = recordingTransport();
    await deliverPendingMails(database, working, config, { now });
    expect(working.sent).toEqual([]);
  });

  it("sends a mail once when it succeeds on a retry", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const [id = 0] = await enqueueResets(database, 1);
    let clock = new Date("2026-11-21T10:00:00.000Z");
    const now = () => clock;
    const sent: number[] = [];
    let isDown = true;
    const flaky: MailTransport = {
      async send(mail) {
        if (isDown) throw new Error("connection refused");
        sent.push(mail.id);
      },
    };
    await deliverPendingMails(database, flaky, config, { now });
    isDown = false;
    clock = new Date("2026-11-21T10:01:00.000Z");
    await deliverPendingMails(database, flaky, config, { now });
    clock = new Date("2026-11-21T11:00:00.000Z");
    await deliverPendingMails(database, flaky, config, { now });
    expect(sent).toEqual([id]);
    expect(await outboxRow(database, id)).toMatchObject({
      status: "sent",
      attempts: 1,
      lastError: null,
      subject: "Reset your password",
    });
  });

  it("sends each mail once when two workers deliver at the same time", async () => {
    const ids = await enqueueResets(database, 35);
    // Two connections to one file stand for two processes on better-sqlite3. libSQL's local file allows one
    // client (the write queue serialises it; several processes go through a libSQL server), so on libSQL the two
    // workers share it and interleave at each await.
    const other = driver === "better-sqlite3" ? test.connectAgain() : database;
    const transport = recordingTransport();
    const [first, second] = await Promise.all([
      deliverPendingMails(database, transport, config),
      deliverPendingMails(other, transport, config),
    ]);
    expect(first.sent + second.sent).toBe(ids.length);
    expect(transport.sent.map((mail) => mail.id).sort((a, b) => a - b)).toEqual(ids);
    const rows = await database.db.select().from(mailOutbox);
    expect(rows.every((row) => row.status === "sent")).toBe(true);
  });

  it("runs as a worker whose flush delivers what is pending now", async () => {
    const transport = recordingTransport();
    const worker = startMailWorker(database, config, { intervalMs: 60_000, transport });
    try {
      const ids = await enqueueResets(database, 3);
      await worker.flush();
      expect(transport.sent.map((mail) => mail.id)).toEqual(ids);
    } finally {
      await worker.stop();
    }
  });

  it("renders the French confirmation with the organiser's subject, a preview link for a testing basket, and no PDF when disabled", async () => {
    const order = await seedOrder(database, {
      testing: true,
      communication: { orderConfirmationSubject: "Vos places pour {{event}}", isPdfTicketEnabled: false },
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
    expect(mail.text).toMatch(/http:\/\/localhost:3000\/tickets\/preview\/winter-ball-[a-z0-9]+\/completion/);
    expect(mail.html).toContain("Zoé Müller");
  });

  it("renders the organiser's own body, with its placeholders, above the order", async () => {
    const order = await seedOrder(database, {
      communication: { orderConfirmationBody: "Dear {{name}},\n\nSee you at <the> ball!" },
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
    expect(mail.attachments).toHaveLength(2);
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
