// The outbox delivering through a real SMTP server (smtp-server, started here): what the server receives, and
// what the worker does when the server refuses. The worker's clock is injected: the backoff is walked, not waited.
import type { AddressInfo } from "node:net";
import { type Database, eq, schema } from "@ticketing/db";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext, DRIVERS, type TestContext } from "../../test-support.ts";
import { seedOrder } from "../tickets/tickets.fixtures.ts";
import { MAX_MAIL_ATTEMPTS, startMailWorker } from "./delivery.ts";
import { enqueueMail } from "./queue.ts";
import { createMailTransport, type MailTransport, messageIdOf, type OutgoingMail } from "./transport.ts";

const { mailOutbox } = schema;

/** Where the server refuses a mail, and with what (a temporary refusal at RCPT, a permanent one at DATA). */
const REFUSALS = {
  RCPT: { code: 451, message: "4.3.2 Mailbox busy, try again later" },
  DATA: { code: 554, message: "5.6.0 Message refused by policy" },
} as const;
type Stage = keyof typeof REFUSALS;

interface TestSmtpServer {
  url: string;
  /** Messages accepted whole, as received (CRLF line ends). */
  messages: string[];
  /** RCPT and DATA commands received, refused ones included: each delivery attempt sends one of each it reaches. */
  commands: Record<Stage, number>;
  refuseAt: Stage | null;
  close(): Promise<void>;
}

function refusal(stage: Stage) {
  return Object.assign(new Error(REFUSALS[stage].message), { responseCode: REFUSALS[stage].code });
}

async function startSmtpServer(): Promise<TestSmtpServer> {
  const state: Omit<TestSmtpServer, "url" | "close"> = { messages: [], commands: { RCPT: 0, DATA: 0 }, refuseAt: null };
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on the loopback: offered STARTTLS, nodemailer would upgrade to the server's untrusted certificate.
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      state.commands.RCPT += 1;
      callback(state.refuseAt === "RCPT" ? refusal("RCPT") : undefined);
    },
    onData(stream: SMTPServerDataStream, _session, callback) {
      state.commands.DATA += 1;
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (state.refuseAt === "DATA") return callback(refusal("DATA"));
        state.messages.push(Buffer.concat(chunks).toString("utf8"));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(state, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  });
}

/** The attachments of a raw message (nodemailer writes them base64-encoded), decoded. */
function attachmentsOf(message: string): { contentType: string; filename: string; content: Buffer }[] {
  const text = message.replace(/\r\n/g, "\n");
  return text
    .split(/^--\S+$/m)
    .filter((part) => /^Content-Disposition: attachment/m.test(part))
    .map((part) => {
      const [headers = "", ...body] = part.replace(/^\n/, "").split(/\n\n/);
      return {
        contentType: /^Content-Type: ([^;\n]+)/m.exec(headers)?.[1] ?? "",
        filename: /filename=("?)([^"\n]+)\1$/m.exec(headers)?.[2] ?? "",
        content: Buffer.from(body.join("").replace(/\s/g, ""), "base64"),
      };
    });
}

const headerOf = (message: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, "im").exec(message.replace(/\r\n/g, "\n"))?.[1];

async function outboxRow(database: Database, id: number) {
  const row = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).get();
  if (!row) throw new Error(`no mail ${id}`);
  return row;
}

describe.each(DRIVERS)("mail delivered over SMTP (%s)", (driver) => {
  let smtp: TestSmtpServer;
  let ctx: TestContext;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    ctx = await createTestContext(driver, { SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    smtp.messages.length = 0;
    smtp.commands = { RCPT: 0, DATA: 0 };
    smtp.refuseAt = null;
    await ctx.database.transaction(function* (tx) {
      yield tx.delete(mailOutbox).run();
    });
  });

  async function enqueueOrderConfirmation() {
    const order = await seedOrder(ctx.database);
    return ctx.database.transaction(function* (tx) {
      return yield* enqueueMail(tx, {
        kind: "order_confirmation",
        to: "zoe@example.org",
        language: "en",
        payload: { basket_id: order.basketId },
      });
    });
  }

  it("delivers an order confirmation with its tickets PDF intact, once, however many flushes run at once", async () => {
    const mail = await enqueueOrderConfirmation();
    // The configured SMTP transport, watched: what the worker hands it is what the server must receive.
    const smtpTransport = createMailTransport(ctx.config);
    const handed: OutgoingMail[] = [];
    const transport: MailTransport = {
      async send(outgoing, signal) {
        handed.push(outgoing);
        await smtpTransport.send(outgoing, signal);
      },
    };
    const worker = startMailWorker(ctx.database, ctx.config, { intervalMs: 60_000, transport });
    try {
      await Promise.all([worker.flush(), worker.flush(), worker.flush(), worker.flush()]);
      await worker.flush();
    } finally {
      await worker.stop();
    }

    expect(smtp.messages).toHaveLength(1);
    expect(smtp.commands).toEqual({ RCPT: 1, DATA: 1 });
    const [message = ""] = smtp.messages;
    expect(headerOf(message, "Subject")).toBe("Your tickets for Winter Ball 2026");
    expect(headerOf(message, "To")).toBe("zoe@example.org");
    expect(headerOf(message, "Message-ID")).toBe(messageIdOf(mail, ctx.config.mailFrom));

    const [pdf] = handed[0]?.attachments ?? [];
    if (!pdf) throw new Error("the confirmation had no attachment");
    const received = attachmentsOf(message);
    expect(received.map(({ contentType, filename }) => ({ contentType, filename }))).toEqual([
      { contentType: "application/pdf", filename: pdf.filename },
    ]);
    expect(received[0]?.content.subarray(0, 5).toString()).toBe("%PDF-");
    expect(received[0]?.content.equals(Buffer.from(pdf.content))).toBe(true);

    expect(await outboxRow(ctx.database, mail.id)).toMatchObject({ status: "sent", attempts: 0, lastError: null });
  });

  it.each<Stage>(["RCPT", "DATA"])(
    "retries a delivery refused at %s after 1, 2, 4 … minutes, then gives it up and reports it in the health answer",
    async (stage) => {
      vi.spyOn(console, "warn").mockImplementation(() => undefined);
      const mail = await enqueueOrderConfirmation();
      smtp.refuseAt = stage;
      let clock = new Date();
      const worker = startMailWorker(ctx.database, ctx.config, { intervalMs: 60_000, now: () => clock });
      const health = async () => (await ctx.call("GET", "/health")).body.mail;
      try {
        const delays: number[] = [];
        for (let attempt = 1; attempt <= MAX_MAIL_ATTEMPTS; attempt++) {
          await worker.flush();
          expect(smtp.commands[stage]).toBe(attempt);
          const row = await outboxRow(ctx.database, mail.id);
          expect(row.attempts).toBe(attempt);
          expect(row.lastError).toContain(String(REFUSALS[stage].code));
          if (attempt === MAX_MAIL_ATTEMPTS) break;
          expect(row.status).toBe("pending");
          const due = new Date(row.nextAttemptAt ?? "");
          delays.push((due.getTime() - clock.getTime()) / 60_000);
          // Waiting, not yet due: a second short of the delay, flushed again, nothing is tried.
          clock = new Date(due.getTime() - 1000);
          await worker.flush();
          expect(smtp.commands[stage]).toBe(attempt);
          clock = due;
        }
        expect(delays).toEqual([1, 2, 4, 8, 16, 32, 64]);
        expect(await outboxRow(ctx.database, mail.id)).toMatchObject({
          status: "failed",
          attempts: MAX_MAIL_ATTEMPTS,
          nextAttemptAt: null,
          sentAt: null,
        });
        expect(await health()).toEqual({ oldest_unsent_seconds: null, given_up: 1 });

        // Given up means given up: a server that accepts again, hours later, receives nothing.
        smtp.refuseAt = null;
        clock = new Date(clock.getTime() + 86_400_000);
        await worker.flush();
        expect(smtp.messages).toEqual([]);
        expect(smtp.commands[stage]).toBe(MAX_MAIL_ATTEMPTS);
      } finally {
        await worker.stop();
      }
    },
  );

  it("reports a mail that waits for its next attempt in the health answer", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const mail = await enqueueOrderConfirmation();
    smtp.refuseAt = "RCPT";
    const worker = startMailWorker(ctx.database, ctx.config, { intervalMs: 60_000 });
    try {
      await worker.flush();
    } finally {
      await worker.stop();
    }
    expect(await outboxRow(ctx.database, mail.id)).toMatchObject({ status: "pending", attempts: 1 });
    const { body } = await ctx.call("GET", "/health");
    expect(body.mail).toEqual({ oldest_unsent_seconds: expect.any(Number), given_up: 0 });
    expect(smtp.commands.RCPT).toBe(1);
  });
});
