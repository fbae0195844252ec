import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Database, type Driver, eq, schema } from "@ticketing/db";
import en from "@ticketing/shared/i18n/en/email.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/email.json" with { type: "json" };
import { keyPaths } from "@ticketing/shared/i18n/translate";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../lib/log.ts";
import { newTicketSigningKey, ticketKeysOf, verifyTicketCode } from "../tickets/ticket-codes.ts";
import {
  addArticles,
  createTestDatabase,
  hasCommand,
  qrCodesOf,
  seedOrder,
  type TestDatabase,
} from "../tickets/tickets.fixtures.ts";
import { createWorkerId } from "./claims.ts";
import { CLAIM_LEASE_MS, deliverPendingMails, MAX_MAIL_ATTEMPTS, startMailWorker } from "./delivery.ts";
import { enqueueMail } from "./queue.ts";
import { MAX_ATTACHED_TICKETS } from "./templates/order-mails.ts";
import { renderMail } from "./templates/registry.ts";
import { createMailTransport, type MailTransport, type OutgoingMail } from "./transport.ts";

const { mailOutbox } = schema;
/** The signed order link's token (lib/order-tokens.ts): basket id, expiry, HMAC. */
const ORDER_TOKEN = String.raw`\d+\.\d+\.[0-9a-f]{64}`;
/** A worker of another machine: whether it lives cannot be told from here. */
const OTHER_MACHINE_WORKER = "4242.a1b2c3@other-host#other-kernel";

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

/** Writes a claim as a worker leaves it: its name and the end of its lease. */
function claimAs(database: Database, id: number, workerId: string, leaseEnd: Date) {
  return database.transaction(function* (tx) {
    yield tx
      .update(mailOutbox)
      .set({ claimedBy: workerId, nextAttemptAt: leaseEnd.toISOString() })
      .where(eq(mailOutbox.id, id))
      .run();
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
    secretKey: string;
    ticketSigningKey: string;
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
      secretKey: "mail-test-secret",
      ticketSigningKey: newTicketSigningKey(),
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

  it("delivers the mails queued behind a slow one without waiting for it", async () => {
    const [slow = 0, ...others] = await enqueueResets(database, 6);
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sent: number[] = [];
    const transport: MailTransport = {
      async send(mail) {
        if (mail.id === slow) await released;
        sent.push(mail.id);
      },
    };
    const delivery = deliverPendingMails(database, transport, config);
    await vi.waitFor(() => expect(sent.toSorted((a, b) => a - b)).toEqual(others), { timeout: 5_000 });
    expect((await outboxRow(database, slow)).status).toBe("pending");
    release();
    expect(await delivery).toEqual({ sent: 6, failed: 0 });
    expect(sent.at(-1)).toBe(slow);
  });

  it("stops a mail that outlasts its time limit and retries it later, sending the others", async () => {
    const [stuck = 0, ...others] = await enqueueResets(database, 3);
    const sent: number[] = [];
    let isStopped = false;
    // The limit is read on the worker's clock, which only this test moves: however slowly the machine renders
    // and sends the others, none of them outlasts it.
    let clock = new Date("2026-11-21T10:00:00.000Z");
    const transport: MailTransport = {
      async send(mail, signal) {
        if (mail.id === stuck) {
          await vi.waitFor(() => expect(sent.toSorted((a, b) => a - b)).toEqual(others), { timeout: 20_000 });
          clock = new Date("2026-11-21T10:00:00.300Z");
          await new Promise((_, reject) =>
            signal.addEventListener("abort", () => {
              isStopped = true;
              reject(signal.reason);
            }),
          );
        }
        sent.push(mail.id);
      },
    };
    const report = await deliverPendingMails(database, transport, config, {
      now: () => clock,
      timeLimitMs: 300,
      renewMs: 5,
    });
    expect(report).toEqual({ sent: 2, failed: 1 });
    expect(sent.toSorted((a, b) => a - b)).toEqual(others);
    expect(isStopped).toBe(true);
    expect(await outboxRow(database, stuck)).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "took longer than 0.3 s",
      nextAttemptAt: "2026-11-21T10:01:00.300Z",
      claimedBy: null,
    });
  });

  it("takes over at once the claims of a worker process that was killed", async () => {
    const [id = 0] = await enqueueResets(database, 1);
    // A process of this machine that no longer exists claimed the mail for a whole lease, then died.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    await claimAs(database, id, createWorkerId(dead), new Date(Date.now() + CLAIM_LEASE_MS));
    const transport = recordingTransport();
    const started = performance.now();
    await deliverPendingMails(database, transport, config);
    console.info(`[mail] a killed worker's mail was sent ${Math.round(performance.now() - started)} ms later`);
    expect(transport.sent.map((mail) => mail.id)).toEqual([id]);
  });

  it("takes over the claim of a worker elsewhere once its lease has run out, and not before", async () => {
    const [id = 0] = await enqueueResets(database, 1);
    const start = new Date("2026-11-21T10:00:00.000Z");
    // Another machine's worker: whether it lives cannot be known from here, only that it stopped renewing.
    await claimAs(database, id, OTHER_MACHINE_WORKER, new Date(start.getTime() + CLAIM_LEASE_MS));
    const transport = recordingTransport();
    await deliverPendingMails(database, transport, config, {
      now: () => new Date(start.getTime() + CLAIM_LEASE_MS - 1),
    });
    expect(transport.sent).toEqual([]);
    await deliverPendingMails(database, transport, config, { now: () => new Date(start.getTime() + CLAIM_LEASE_MS) });
    expect(transport.sent.map((mail) => mail.id)).toEqual([id]);
    expect(CLAIM_LEASE_MS).toBeLessThanOrEqual(30_000);
  });

  it("never takes a live worker's claim, however long its send lasts", async () => {
    const [id = 0] = await enqueueResets(database, 1);
    const other = driver === "better-sqlite3" ? test.connectAgain() : database;
    // The leases run on a clock only this test moves: a busy machine slows the workers down, it never makes a
    // lease run out.
    let clock = new Date("2026-11-21T10:00:00.000Z").getTime();
    const timing = { leaseMs: 300, renewMs: 5, now: () => new Date(clock) };
    const sent: string[] = [];
    let startSending = () => {};
    const isSending = new Promise<void>((resolve) => {
      startSending = resolve;
    });
    let finishSending = () => {};
    const finished = new Promise<void>((resolve) => {
      finishSending = resolve;
    });
    const slow: MailTransport = {
      async send(mail) {
        startSending();
        await finished;
        sent.push(`slow ${mail.id}`);
      },
    };
    const eager: MailTransport = {
      async send(mail) {
        sent.push(`eager ${mail.id}`);
      },
    };
    const first = deliverPendingMails(database, slow, config, timing);
    await isSending;
    // For five leases, half a lease at a time: the first worker renews its claim, and another worker looking for
    // due mails finds none.
    for (let step = 1; step <= 10; step++) {
      clock += timing.leaseMs / 2;
      const renewedUntil = new Date(clock + timing.leaseMs).toISOString();
      await vi.waitFor(async () => expect((await outboxRow(database, id)).nextAttemptAt).toBe(renewedUntil), {
        timeout: 20_000,
      });
      expect(await deliverPendingMails(other, eager, config, timing)).toEqual({ sent: 0, failed: 0 });
    }
    finishSending();
    expect(await first).toEqual({ sent: 1, failed: 0 });
    expect(sent).toEqual([`slow ${id}`]);
  });

  it("stops sending a mail whose claim another worker holds, and leaves it to that worker", async () => {
    const [id = 0] = await enqueueResets(database, 1);
    let wasAborted = false;
    const transport: MailTransport = {
      async send(_mail, signal) {
        // The claim changes hands while the mail is being sent (this worker was taken for dead).
        await claimAs(database, id, OTHER_MACHINE_WORKER, new Date(Date.now() + 60_000));
        await new Promise((_, reject) =>
          signal.addEventListener("abort", () => {
            wasAborted = true;
            reject(signal.reason);
          }),
        );
      },
    };
    const report = await deliverPendingMails(database, transport, config, { leaseMs: 400, renewMs: 50 });
    expect(report).toEqual({ sent: 0, failed: 0 });
    expect(wasAborted).toBe(true);
    expect(await outboxRow(database, id)).toMatchObject({
      status: "pending",
      attempts: 0,
      claimedBy: OTHER_MACHINE_WORKER,
    });
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
