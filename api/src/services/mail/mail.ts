// The mail outbox (DESIGN.md 2): a mail row is written in the transaction that causes it; workers claim,
// render, send and retry. Without SMTP_URL every mail becomes an .eml file under DATA_DIR/mail.
//
// Delivery: each worker (one per process) sends a few mails at once, each within a time limit, so a huge or
// slow mail holds one slot and never the queue. A claim is a short lease (`next_attempt_at`) naming its
// worker (`claimed_by`), renewed while the worker works on the mail: a live worker's claim never runs out,
// a dead worker's claim runs out within the lease, and at once when a restart on the same machine can tell
// that the process which held it is gone.
import { randomBytes } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import {
  and,
  asc,
  type Database,
  type Db,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  or,
  run,
  schema,
} from "@ticketing/db";
import type { Language, MailKind } from "@ticketing/shared/constants";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { Config } from "../../env.ts";
import { type Log, log } from "../../lib/log.ts";
import { MAIL_PAYLOADS, type MailPayloads, type RenderedMail, renderMail } from "./templates.ts";

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

/**
 * Queues a mail about a basket to its buyer's billing address, in the buyer's language (inside a transaction
 * body): the queued row, or null when the basket has no billing information yet.
 */
export function* mailBasketBuyer<K extends MailKind>(
  tx: Db,
  basketId: number,
  kind: K,
  payload: MailPayloads[K],
): Generator<unknown, OutboxMail | null, unknown> {
  const buyer = yield* run(
    tx
      .select({ email: schema.billingInformation.email, language: schema.baskets.language })
      .from(schema.baskets)
      .innerJoin(schema.billingInformation, eq(schema.billingInformation.id, schema.baskets.billingInformationId))
      .where(eq(schema.baskets.id, basketId))
      .get(),
  );
  if (!buyer) return null;
  return yield* enqueueMail(tx, { kind, to: buyer.email, language: buyer.language, payload });
}

export interface OutgoingMail extends RenderedMail {
  id: number;
  kind: MailKind;
  to: string;
  /** Derived from the outbox row: a mail sent again after a crash carries the same one, so mailboxes can tell. */
  messageId: string;
}

/** Sends one rendered mail; throws when it was not accepted. Stops (and throws) when `signal` aborts. */
export interface MailTransport {
  send(mail: OutgoingMail, signal: AbortSignal): Promise<void>;
}

type MailConfig = Pick<Config, "smtpUrl" | "mailFrom" | "dataDir" | "logMails">;

/** `<mail-42.20261121T100000123Z@example.org>`: the row's id and creation time, at the sender's domain. */
export function messageIdOf(mail: Pick<OutboxMail, "id" | "createdAt">, mailFrom: string): string {
  const domain = /@([\w.-]+)/.exec(mailFrom)?.[1] ?? "localhost";
  return `<mail-${mail.id}.${mail.createdAt.replace(/[^\dTZ]/g, "")}@${domain}>`;
}

/**
 * The platform's sender, under the event's sender name when it has one: the address stays ours (the domain whose
 * SPF/DKIM vouch for the mail), only the name buyers read changes.
 */
function fromOf(mailFrom: string, name: string | null): string | { name: string; address: string } {
  if (!name) return mailFrom;
  return { name, address: /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim() };
}

/**
 * SMTP when `config.smtpUrl` is set; otherwise `.eml` files in `<dataDir>/mail/` and, if `logMails`, a log line
 * naming the file (never the mail's links: a login link or an order link is a key).
 */
export function createMailTransport(config: MailConfig, logger: Log = log): MailTransport {
  const message = (mail: OutgoingMail) => ({
    from: fromOf(config.mailFrom, mail.sender?.name ?? null),
    ...(mail.sender?.replyTo ? { replyTo: mail.sender.replyTo } : {}),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments,
    messageId: mail.messageId,
  });
  const { smtpUrl } = config;
  if (smtpUrl) {
    return {
      async send(mail, signal) {
        signal.throwIfAborted();
        // One connection per mail, opened by us: an abort (time limit, lost claim) destroys it, so nothing of
        // the mail can still reach the server after the worker gave it up.
        const sockets = new Set<Socket>();
        const options: SMTPTransport.Options = {
          url: smtpUrl,
          connectionTimeout: 15_000,
          greetingTimeout: 15_000,
          socketTimeout: 30_000,
          getSocket(target, callback) {
            const socket = connect({
              host: target.host ?? "localhost",
              port: Number(target.port) || (target.secure ? 465 : 587),
            });
            sockets.add(socket);
            const refuse = (error: Error) => callback(error, undefined);
            socket.once("error", refuse);
            socket.once("connect", () => {
              socket.off("error", refuse);
              callback(null, { connection: socket });
            });
          },
        };
        const smtp = nodemailer.createTransport(options);
        const abort = () => {
          for (const socket of sockets) socket.destroy(signal.reason instanceof Error ? signal.reason : undefined);
        };
        signal.addEventListener("abort", abort, { once: true });
        try {
          await smtp.sendMail(message(mail));
        } finally {
          signal.removeEventListener("abort", abort);
          smtp.close();
        }
      },
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const directory = join(config.dataDir, "mail");
  return {
    async send(mail, signal) {
      const info = await stream.sendMail(message(mail));
      signal.throwIfAborted();
      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d+Z$/, "Z");
      await mkdir(directory, { recursive: true });
      const file = join(directory, `${stamp}-${mail.id}-${mail.kind}.eml`);
      await writeFile(file, info.message as Buffer);
      if (config.logMails) logger.info({ mail: mail.id, kind: mail.kind, file }, "mail written");
    },
  };
}

export const MAX_MAIL_ATTEMPTS = 8;
/**
 * How long a claim hides a mail from other workers. The worker renews it every `CLAIM_RENEW_MS` while it works
 * on the mail, so it runs out only when its worker died (or could not reach the database for that long).
 */
export const CLAIM_LEASE_MS = 20_000;
const CLAIM_RENEW_MS = 5_000;
/**
 * A worker stops sending a mail whose claim it could not renew for `lease − this`: it has given the mail up
 * before another worker may claim it (clocks of the machines agreeing within this margin).
 */
const LEASE_MARGIN_MS = 5_000;
/**
 * The longest one mail may take to render and send; it is then stopped (at the next heartbeat) and retried like a
 * failure.
 */
export const MAIL_TIME_LIMIT_MS = 120_000;
/** Mails one worker renders and sends at once. */
export const MAIL_CONCURRENCY = 4;

export interface DeliveryOptions {
  /** The process's logger by default. */
  logger?: Log;
  /**
   * The worker's clock: of `next_attempt_at` and `sent_at`, and of its own reckoning of a claim's lease and of a
   * mail's time limit, so that a test moves time itself instead of waiting for it.
   */
  now?: () => Date;
  /** Names the worker's claims; a new one by default (`createWorkerId`). */
  workerId?: string;
  concurrency?: number;
  leaseMs?: number;
  renewMs?: number;
  timeLimitMs?: number;
}

export interface DeliveryReport {
  sent: number;
  /** Attempts that failed (retried later, or given up after MAX_MAIL_ATTEMPTS). */
  failed: number;
}

// Who a worker is: `<pid>.<nonce>@<host>#<kernel>`, where the kernel part (boot id and pid namespace) says
// whether another worker's pid can be checked from here. Missing where /proc is not (then leases alone).
const KERNEL = (() => {
  try {
    const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const pidNamespace = readlinkSync("/proc/self/ns/pid").replace(/\D/g, "");
    return bootId && pidNamespace ? `${bootId}:${pidNamespace}` : "";
  } catch {
    return "";
  }
})();
const WORKER_ID = /^(\d+)\.(\w+)@[^#]*#(.*)$/;
/** The workers of this process that may hold claims now. */
const activeWorkers = new Set<string>();

export function createWorkerId(pid = process.pid): string {
  return `${pid}.${randomBytes(6).toString("hex")}@${hostname()}#${KERNEL}`;
}

/**
 * Whether the worker that wrote `workerId` is certainly gone: it ran under this kernel and pid namespace, and
 * its process no longer exists (or is this process, in which it is not running). Anything else may be alive.
 */
function isWorkerGone(workerId: string): boolean {
  const match = WORKER_ID.exec(workerId);
  if (!match || !KERNEL || match[3] !== KERNEL || activeWorkers.has(workerId)) return false;
  const pid = Number(match[1]);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

class ClaimLostError extends Error {
  constructor(id: number) {
    super(`mail #${id}: another worker holds its claim`);
  }
}

interface Attempt {
  mail: OutboxMail;
  controller: AbortController;
  /** When (the courier's clock, ms) the attempt started: its time limit counts from there. */
  startedAt: number;
  /** When (the courier's clock, ms) the last renewal that kept the claim was asked for. */
  renewedAt: number;
  done: Promise<void>;
}

/** Claims, renews and delivers with a bounded number of mails in flight; shared by the worker and one-off runs. */
function createCourier(
  database: Database,
  transport: MailTransport,
  config: Pick<Config, "publicUrl" | "dataDir" | "mailFrom" | "secretKey" | "ticketSigningKey">,
  options: DeliveryOptions,
) {
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? log;
  const workerId = options.workerId ?? createWorkerId();
  const concurrency = options.concurrency ?? MAIL_CONCURRENCY;
  const leaseMs = options.leaseMs ?? CLAIM_LEASE_MS;
  const renewMs = options.renewMs ?? CLAIM_RENEW_MS;
  const timeLimitMs = options.timeLimitMs ?? MAIL_TIME_LIMIT_MS;
  const marginMs = Math.min(LEASE_MARGIN_MS, leaseMs / 4);
  const attempts = new Map<number, Attempt>();
  const report: DeliveryReport = { sent: 0, failed: 0 };
  let claiming: Promise<void> | undefined;
  let lastGoneCheck = Number.NEGATIVE_INFINITY;
  let heartbeat: NodeJS.Timeout | undefined;
  /** The heartbeat's work in progress: a beat that finds it still running is skipped (see `open`). */
  let beating: Promise<void> | undefined;
  let isClosing = false;
  activeWorkers.add(workerId);

  const leaseEnd = () => new Date(now().getTime() + leaseMs).toISOString();

  async function claimAndStart() {
    if (performance.now() - lastGoneCheck >= renewMs) {
      lastGoneCheck = performance.now();
      await releaseClaimsOfGoneWorkers(database, now().toISOString());
    }
    const free = concurrency - attempts.size;
    if (free <= 0) return;
    const claimed = await database.transaction(function* (tx) {
      const due = tx
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(
          and(
            eq(mailOutbox.status, "pending"),
            or(isNull(mailOutbox.nextAttemptAt), lte(mailOutbox.nextAttemptAt, now().toISOString())),
          ),
        )
        .orderBy(asc(mailOutbox.id))
        .limit(free);
      return yield* run(
        tx
          .update(mailOutbox)
          .set({ nextAttemptAt: leaseEnd(), claimedBy: workerId })
          .where(inArray(mailOutbox.id, due))
          .returning()
          .all(),
      );
    });
    for (const mail of claimed) start(mail);
  }

  /** Claims due mails for the free slots and starts them (one claim at a time in this worker). */
  function fill(): Promise<void> {
    if (isClosing) return Promise.resolve();
    claiming ??= claimAndStart().finally(() => {
      claiming = undefined;
    });
    return claiming;
  }

  function start(mail: OutboxMail) {
    const controller = new AbortController();
    const at = now().getTime();
    const attempt: Attempt = { mail, controller, startedAt: at, renewedAt: at, done: Promise.resolve() };
    attempt.done = deliver(mail, controller.signal)
      .catch((error: unknown) => logger.error({ err: error, mail: mail.id }, "mail outcome not recorded"))
      .finally(() => {
        attempts.delete(mail.id);
        // A free slot takes the next mail at once.
        if (heartbeat) fill().catch((error: unknown) => logger.error({ err: error }, "claiming mails failed"));
      });
    attempts.set(mail.id, attempt);
  }

  /** Keeps this worker's claims: the renewal names the worker, so a claim another worker took is not renewed. */
  function renew(ids: number[]): Promise<Set<number>> {
    return database.transaction(function* (tx) {
      const rows = yield* run(
        tx
          .update(mailOutbox)
          .set({ nextAttemptAt: leaseEnd() })
          .where(and(inArray(mailOutbox.id, ids), eq(mailOutbox.claimedBy, workerId), eq(mailOutbox.status, "pending")))
          .returning({ id: mailOutbox.id })
          .all(),
      );
      return new Set(rows.map((row) => row.id));
    });
  }

  /**
   * The heartbeat's work: keeps the claims in flight, gives up those it could not keep, stops the mails past their
   * time limit. Every duration here is read on the courier's clock (`now`), the clock of the leases themselves.
   */
  async function renewAll() {
    const ids = [...attempts.keys()];
    if (ids.length > 0) {
      const at = now().getTime();
      try {
        const kept = await renew(ids);
        for (const id of ids) {
          const attempt = attempts.get(id);
          if (!attempt) continue;
          if (kept.has(id)) attempt.renewedAt = at;
          else attempt.controller.abort(new ClaimLostError(id));
        }
      } catch (error) {
        logger.warn({ err: error }, "renewing mail claims failed");
      }
    }
    const current = now().getTime();
    for (const attempt of attempts.values()) {
      // Not renewed for too long: give the mail up before its lease ends and another worker may take it.
      if (current - attempt.renewedAt > leaseMs - marginMs)
        attempt.controller.abort(new ClaimLostError(attempt.mail.id));
      // Checked at each heartbeat: a mail is stopped at most `renewMs` after its limit.
      else if (current - attempt.startedAt >= timeLimitMs)
        attempt.controller.abort(new Error(`took longer than ${timeLimitMs / 1000} s`));
    }
  }

  async function deliver(mail: OutboxMail, signal: AbortSignal) {
    let subject: string;
    try {
      const rendered = await untilAborted(renderMail({ database, config, signal }, mail), signal);
      // The last check before the mail leaves: the claim is still this worker's, for a whole lease.
      if (!(await renew([mail.id])).has(mail.id)) throw new ClaimLostError(mail.id);
      const outgoing = { ...rendered, id: mail.id, kind: mail.kind, to: mail.to };
      await untilAborted(
        transport.send({ ...outgoing, messageId: messageIdOf(mail, config.mailFrom) }, signal),
        signal,
      );
      subject = rendered.subject;
    } catch (caught) {
      const error = signal.aborted ? signal.reason : caught;
      if (error instanceof ClaimLostError) {
        logger.warn({ mail: mail.id, kind: mail.kind }, "mail left to the worker that holds its claim");
        return;
      }
      await recordFailure(mail, error);
      report.failed += 1;
      return;
    }
    // Outside the catch: a mail that left must never be scheduled again as if it had failed.
    await database.transaction(function* (tx) {
      yield* run(
        tx
          .update(mailOutbox)
          .set({
            status: "sent",
            subject,
            sentAt: now().toISOString(),
            nextAttemptAt: null,
            claimedBy: null,
            lastError: null,
          })
          .where(and(eq(mailOutbox.id, mail.id), eq(mailOutbox.status, "pending")))
          .run(),
      );
    });
    report.sent += 1;
  }

  async function recordFailure(mail: OutboxMail, error: unknown) {
    const attempts = mail.attempts + 1;
    const isGivenUp = attempts >= MAX_MAIL_ATTEMPTS;
    // 1 minute after the first failure, then 2, 4, … 64.
    const retryAt = new Date(now().getTime() + 60_000 * 2 ** (attempts - 1)).toISOString();
    const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    logger.warn({ mail: mail.id, kind: mail.kind, attempt: attempts, reason: lastError }, "mail not delivered");
    await database.transaction(function* (tx) {
      yield* run(
        tx
          .update(mailOutbox)
          .set({
            attempts,
            lastError,
            status: isGivenUp ? "failed" : "pending",
            nextAttemptAt: isGivenUp ? null : retryAt,
            claimedBy: null,
          })
          .where(and(eq(mailOutbox.id, mail.id), eq(mailOutbox.status, "pending"), eq(mailOutbox.claimedBy, workerId)))
          .run(),
      );
    });
  }

  /** Delivers until nothing is due and nothing is in flight. */
  async function drain() {
    for (;;) {
      await fill();
      if (attempts.size === 0) return;
      await Promise.race([...attempts.values()].map((attempt) => attempt.done));
    }
  }

  return {
    report,
    fill,
    drain,
    /** Renews the claims in flight, and takes new mails, every `renewMs`. */
    open() {
      // One beat at a time: with a database slower than `renewMs`, overlapping renewals would end out of order,
      // and one asked for earlier would set a claim's `renewedAt` back and give up a claim that was kept.
      heartbeat ??= setInterval(() => {
        if (beating) return;
        beating = renewAll()
          .then(fill)
          .catch((error: unknown) => logger.error({ err: error }, "claiming mails failed"))
          .finally(() => {
            beating = undefined;
          });
      }, renewMs).unref();
    },
    /** Waits for the mails in flight (their claims renewed meanwhile), then lets go. */
    async close() {
      isClosing = true;
      while (attempts.size > 0) await Promise.all([...attempts.values()].map((attempt) => attempt.done));
      clearInterval(heartbeat);
      heartbeat = undefined;
      activeWorkers.delete(workerId);
    },
  };
}

/** Frees, for any worker to take now, the claims of workers that are certainly gone (see `isWorkerGone`). */
async function releaseClaimsOfGoneWorkers(database: Database, now: string) {
  const claimants = await database.db
    .selectDistinct({ claimedBy: mailOutbox.claimedBy })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, "pending"), isNotNull(mailOutbox.claimedBy), gt(mailOutbox.nextAttemptAt, now)))
    .all();
  const gone = claimants.flatMap(({ claimedBy }) => (claimedBy && isWorkerGone(claimedBy) ? [claimedBy] : []));
  if (gone.length === 0) return;
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .update(mailOutbox)
        .set({ nextAttemptAt: now, claimedBy: null })
        .where(and(eq(mailOutbox.status, "pending"), inArray(mailOutbox.claimedBy, gone)))
        .run(),
    );
  });
}

/** The promise's outcome, or the signal's reason as soon as it aborts (what was started may go on unobserved). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Delivers every mail due now, a few at a time, until none is left; safe to run in several workers at once.
 * A mail that is slow to render or send holds one of the `concurrency` slots while the others go on.
 */
export async function deliverPendingMails(
  database: Database,
  transport: MailTransport,
  config: Pick<Config, "publicUrl" | "dataDir" | "mailFrom" | "secretKey" | "ticketSigningKey">,
  options: DeliveryOptions = {},
): Promise<DeliveryReport> {
  const courier = createCourier(database, transport, config, options);
  courier.open();
  try {
    await courier.drain();
  } finally {
    await courier.close();
  }
  return courier.report;
}

export interface MailWorker {
  /** Delivers everything due now (and what is in flight). */
  flush(): Promise<void>;
  /** Takes no more mails and waits for those in flight. */
  stop(): Promise<void>;
}

/** Takes due mails every `intervalMs`, and as soon as a slot frees, for the life of the process. */
export function startMailWorker(
  database: Database,
  config: MailConfig & Pick<Config, "publicUrl" | "secretKey" | "ticketSigningKey">,
  options: DeliveryOptions & { intervalMs: number; transport?: MailTransport },
): MailWorker {
  const transport = options.transport ?? createMailTransport(config, options.logger);
  const courier = createCourier(database, transport, config, options);
  let isStopped = false;
  const take = () => {
    if (!isStopped)
      courier.fill().catch((error: unknown) => (options.logger ?? log).error({ err: error }, "claiming mails failed"));
  };
  courier.open();
  const timer = setInterval(take, options.intervalMs).unref();
  setImmediate(take);
  return {
    async flush() {
      if (!isStopped) await courier.drain();
    },
    async stop() {
      isStopped = true;
      clearInterval(timer);
      await courier.close();
    },
  };
}
