// The mail outbox (DESIGN.md 2): a mail row is written in the transaction that causes it; a worker claims,
// renders, sends and retries. Without SMTP_URL every mail becomes an .eml file under DATA_DIR/mail.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { and, asc, type Database, type Db, eq, inArray, isNull, lte, or, run, schema } from "@ticketing/db";
import type { Language, MailKind } from "@ticketing/shared/constants";
import nodemailer from "nodemailer";
import type { Config } from "../env.ts";
import { MAIL_PAYLOADS, type MailPayloads, type RenderedMail, renderMail } from "./mail-templates.ts";

const { mailOutbox } = schema;
export type OutboxMail = typeof mailOutbox.$inferSelect;

export interface MailRequest<K extends MailKind> {
  kind: K;
  to: string;
  language: Language;
  payload: MailPayloads[K];
}

/** Queues a mail inside a transaction body: `yield* enqueueMail(tx, {...})`. Sent only if the transaction commits. */
export function* enqueueMail<K extends MailKind>(
  tx: Db,
  mail: MailRequest<K>,
): Generator<unknown, OutboxMail, unknown> {
  const payload = MAIL_PAYLOADS[mail.kind].parse(mail.payload) as Record<string, unknown>;
  return yield* run(
    tx.insert(mailOutbox).values({ kind: mail.kind, to: mail.to, language: mail.language, payload }).returning().get(),
  );
}

export interface OutgoingMail extends RenderedMail {
  id: number;
  kind: MailKind;
  to: string;
}

/** Sends one rendered mail; throws when it was not accepted. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
}

type MailConfig = Pick<Config, "smtpUrl" | "mailFrom" | "dataDir" | "logMails">;

/** SMTP when `config.smtpUrl` is set; otherwise `.eml` files in `<dataDir>/mail/` and, if `logMails`, a console line. */
export function createMailTransport(config: MailConfig): MailTransport {
  const message = (mail: OutgoingMail) => ({
    from: config.mailFrom,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments,
  });
  if (config.smtpUrl) {
    // Short timeouts: a send must end well within the claim's lease, or another worker may send the mail again.
    const smtp = nodemailer.createTransport({
      url: config.smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
    return {
      async send(mail) {
        await smtp.sendMail(message(mail));
      },
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const directory = join(config.dataDir, "mail");
  return {
    async send(mail) {
      const info = await stream.sendMail(message(mail));
      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d+Z$/, "Z");
      await mkdir(directory, { recursive: true });
      await writeFile(join(directory, `${stamp}-${mail.id}-${mail.kind}.eml`), info.message as Buffer);
      if (config.logMails) {
        const links = mail.text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? [];
        console.info(`[mail] "${mail.subject}" to ${mail.to}${links.length ? ` ${links.join(" ")}` : ""}`);
      }
    },
  };
}

export const MAX_MAIL_ATTEMPTS = 8;
/** A claimed mail is hidden from other workers this long; if its worker dies, the mail is sent after it. */
const CLAIM_LEASE_MS = 10 * 60_000;
const BATCH_SIZE = 10;

export interface DeliveryOptions {
  /** The clock, for tests. */
  now?: () => Date;
}

export interface DeliveryReport {
  sent: number;
  /** Attempts that failed (retried later, or given up after MAX_MAIL_ATTEMPTS). */
  failed: number;
}

/** Delivers every mail due now, batch by batch, until none is left; safe to run in several workers at once. */
export async function deliverPendingMails(
  database: Database,
  transport: MailTransport,
  config: Pick<Config, "publicUrl" | "dataDir">,
  options: DeliveryOptions = {},
): Promise<DeliveryReport> {
  const now = options.now ?? (() => new Date());
  const report: DeliveryReport = { sent: 0, failed: 0 };
  for (;;) {
    const claimed = await claimDueMails(database, now());
    if (claimed.length === 0) return report;
    for (const mail of claimed) {
      const isSent = await deliverOne(database, transport, config, mail, now);
      report[isSent ? "sent" : "failed"] += 1;
    }
  }
}

/**
 * One statement picks the due mails and pushes their `next_attempt_at` past a lease: a second worker's claim,
 * serialised after it by SQLite's write lock, no longer sees them.
 */
function claimDueMails(database: Database, at: Date): Promise<OutboxMail[]> {
  const now = at.toISOString();
  const leaseEnd = new Date(at.getTime() + CLAIM_LEASE_MS).toISOString();
  return database.transaction(function* (tx) {
    const due = tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(eq(mailOutbox.status, "pending"), or(isNull(mailOutbox.nextAttemptAt), lte(mailOutbox.nextAttemptAt, now))),
      )
      .orderBy(asc(mailOutbox.id))
      .limit(BATCH_SIZE);
    return yield* run(
      tx.update(mailOutbox).set({ nextAttemptAt: leaseEnd }).where(inArray(mailOutbox.id, due)).returning().all(),
    );
  });
}

async function deliverOne(
  database: Database,
  transport: MailTransport,
  config: Pick<Config, "publicUrl" | "dataDir">,
  mail: OutboxMail,
  now: () => Date,
): Promise<boolean> {
  const claimed = and(eq(mailOutbox.id, mail.id), eq(mailOutbox.status, "pending"));
  let subject: string;
  try {
    const rendered = await renderMail({ database, config }, mail);
    await transport.send({ ...rendered, id: mail.id, kind: mail.kind, to: mail.to });
    subject = rendered.subject;
  } catch (error) {
    const attempts = mail.attempts + 1;
    const isGivenUp = attempts >= MAX_MAIL_ATTEMPTS;
    // 1 minute after the first failure, then 2, 4, … 64.
    const retryAt = new Date(now().getTime() + 60_000 * 2 ** (attempts - 1)).toISOString();
    const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    console.warn(`[mail] ${mail.kind} #${mail.id} to ${mail.to} failed (attempt ${attempts}): ${lastError}`);
    await database.transaction(function* (tx) {
      yield* run(
        tx
          .update(mailOutbox)
          .set({
            attempts,
            lastError,
            status: isGivenUp ? "failed" : "pending",
            nextAttemptAt: isGivenUp ? null : retryAt,
          })
          .where(claimed)
          .run(),
      );
    });
    return false;
  }
  // Outside the catch: a mail that left must never be scheduled again as if it had failed.
  const sentAt = now().toISOString();
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .update(mailOutbox)
        .set({ status: "sent", subject, sentAt, nextAttemptAt: null, lastError: null })
        .where(claimed)
        .run(),
    );
  });
  return true;
}

export interface MailWorker {
  /** Delivers everything due now (after the round in progress, if any). */
  flush(): Promise<void>;
  /** Stops the timer and waits for the round in progress. */
  stop(): Promise<void>;
}

/** Delivers due mails every `intervalMs`, one round at a time. */
export function startMailWorker(
  database: Database,
  config: MailConfig & Pick<Config, "publicUrl">,
  options: { intervalMs: number; transport?: MailTransport },
): MailWorker {
  const transport = options.transport ?? createMailTransport(config);
  let round: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let isStopped = false;

  const deliver = () => {
    const next = round.then(() => deliverPendingMails(database, transport, config));
    round = next.catch(() => undefined);
    return next;
  };
  const tick = () => {
    deliver()
      .catch((error: unknown) => console.error("[mail] delivery round failed:", error))
      .finally(() => {
        if (!isStopped) timer = setTimeout(tick, options.intervalMs).unref();
      });
  };
  timer = setTimeout(tick, 0).unref();

  return {
    async flush() {
      await deliver();
    },
    async stop() {
      isStopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
