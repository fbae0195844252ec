// Delivering the outbox (docs/decisions/0008-mail-delivery-and-large-orders.md): a courier claims due mails
// (claims.ts), renders them (templates/) and sends them (transport.ts), retrying failures with a backoff. Each
// worker (one per process) sends a few mails at once, each within a time limit, so a huge or slow mail holds one
// slot and never the queue.
import type { Database } from "@ticketing/db";
import type { Config } from "../../env.ts";
import { type Log, log } from "../../lib/log.ts";
import {
  activeWorkers,
  claimDueMails,
  createWorkerId,
  markFailed,
  markSent,
  releaseClaimsOfGoneWorkers,
  renewClaims,
} from "./claims.ts";
import type { OutboxMail } from "./queue.ts";
import { renderMail } from "./templates/registry.ts";
import { createMailTransport, type MailConfig, type MailTransport, messageIdOf } from "./transport.ts";

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
const MAIL_TIME_LIMIT_MS = 120_000;
/** Mails one worker renders and sends at once. */
const MAIL_CONCURRENCY = 4;

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

type RenderConfig = Pick<Config, "publicUrl" | "dataDir" | "mailFrom" | "secretKey" | "ticketSigningKey">;

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
interface Courier {
  database: Database;
  transport: MailTransport;
  config: RenderConfig;
  logger: Log;
  now: () => Date;
  workerId: string;
  concurrency: number;
  leaseMs: number;
  renewMs: number;
  timeLimitMs: number;
  marginMs: number;
  attempts: Map<number, Attempt>;
  report: DeliveryReport;
  claiming: Promise<void> | undefined;
  lastGoneCheck: number;
  heartbeat: NodeJS.Timeout | undefined;
  /** The heartbeat's work in progress: a beat that finds it still running is skipped (see `open`). */
  beating: Promise<void> | undefined;
  isClosing: boolean;
}

function createCourier(
  database: Database,
  transport: MailTransport,
  config: RenderConfig,
  options: DeliveryOptions,
): Courier {
  const leaseMs = options.leaseMs ?? CLAIM_LEASE_MS;
  const courier: Courier = {
    database,
    transport,
    config,
    logger: options.logger ?? log,
    now: options.now ?? (() => new Date()),
    workerId: options.workerId ?? createWorkerId(),
    concurrency: options.concurrency ?? MAIL_CONCURRENCY,
    leaseMs,
    renewMs: options.renewMs ?? CLAIM_RENEW_MS,
    timeLimitMs: options.timeLimitMs ?? MAIL_TIME_LIMIT_MS,
    marginMs: Math.min(LEASE_MARGIN_MS, leaseMs / 4),
    attempts: new Map(),
    report: { sent: 0, failed: 0 },
    claiming: undefined,
    lastGoneCheck: Number.NEGATIVE_INFINITY,
    heartbeat: undefined,
    beating: undefined,
    isClosing: false,
  };
  activeWorkers.add(courier.workerId);
  return courier;
}

const leaseEnd = (courier: Courier) => new Date(courier.now().getTime() + courier.leaseMs).toISOString();

/** Claims due mails for the free slots and starts them (one claim at a time in this worker). */
function fill(courier: Courier): Promise<void> {
  if (courier.isClosing) return Promise.resolve();
  courier.claiming ??= claimAndStart(courier).finally(() => {
    courier.claiming = undefined;
  });
  return courier.claiming;
}

async function claimAndStart(courier: Courier) {
  const { database } = courier;
  if (performance.now() - courier.lastGoneCheck >= courier.renewMs) {
    courier.lastGoneCheck = performance.now();
    await releaseClaimsOfGoneWorkers(database, courier.now().toISOString());
  }
  const free = courier.concurrency - courier.attempts.size;
  if (free <= 0) return;
  const claimed = await claimDueMails(database, {
    workerId: courier.workerId,
    limit: free,
    now: courier.now().toISOString(),
    leaseEnd: leaseEnd(courier),
  });
  for (const mail of claimed) start(courier, mail);
}

function start(courier: Courier, mail: OutboxMail) {
  const controller = new AbortController();
  const at = courier.now().getTime();
  const attempt: Attempt = { mail, controller, startedAt: at, renewedAt: at, done: Promise.resolve() };
  attempt.done = deliver(courier, mail, controller.signal)
    .catch((error: unknown) => courier.logger.error({ err: error, mail: mail.id }, "mail outcome not recorded"))
    .finally(() => {
      courier.attempts.delete(mail.id);
      // A free slot takes the next mail at once.
      if (courier.heartbeat)
        fill(courier).catch((error: unknown) => courier.logger.error({ err: error }, "claiming mails failed"));
    });
  courier.attempts.set(mail.id, attempt);
}

const renew = (courier: Courier, ids: number[]) =>
  renewClaims(courier.database, courier.workerId, ids, leaseEnd(courier));

/**
 * The heartbeat's work: keeps the claims in flight, gives up those it could not keep, stops the mails past their
 * time limit. Every duration here is read on the courier's clock (`now`), the clock of the leases themselves.
 */
async function renewAll(courier: Courier) {
  await renewInFlight(courier);
  stopOverdue(courier);
}

/** Renews the claims of the mails in flight; a mail whose claim another worker holds now is stopped. */
async function renewInFlight(courier: Courier) {
  const ids = [...courier.attempts.keys()];
  if (ids.length === 0) return;
  const at = courier.now().getTime();
  try {
    const kept = await renew(courier, ids);
    for (const id of ids) {
      const attempt = courier.attempts.get(id);
      if (!attempt) continue;
      if (kept.has(id)) attempt.renewedAt = at;
      else attempt.controller.abort(new ClaimLostError(id));
    }
  } catch (error) {
    courier.logger.warn({ err: error }, "renewing mail claims failed");
  }
}

/** Stops the attempts whose claim was not renewed for too long, or which ran past their time limit. */
function stopOverdue(courier: Courier) {
  const { leaseMs, marginMs, timeLimitMs } = courier;
  const current = courier.now().getTime();
  for (const attempt of courier.attempts.values()) {
    // Not renewed for too long: give the mail up before its lease ends and another worker may take it.
    if (current - attempt.renewedAt > leaseMs - marginMs) attempt.controller.abort(new ClaimLostError(attempt.mail.id));
    // Checked at each heartbeat: a mail is stopped at most `renewMs` after its limit.
    else if (current - attempt.startedAt >= timeLimitMs)
      attempt.controller.abort(new Error(`took longer than ${timeLimitMs / 1000} s`));
  }
}

async function deliver(courier: Courier, mail: OutboxMail, signal: AbortSignal) {
  const { database, config, logger } = courier;
  let subject: string;
  try {
    const rendered = await untilAborted(renderMail({ database, config, signal }, mail), signal);
    // The last check before the mail leaves: the claim is still this worker's, for a whole lease.
    if (!(await renew(courier, [mail.id])).has(mail.id)) throw new ClaimLostError(mail.id);
    const outgoing = { ...rendered, id: mail.id, kind: mail.kind, to: mail.to };
    await untilAborted(
      courier.transport.send({ ...outgoing, messageId: messageIdOf(mail, config.mailFrom) }, signal),
      signal,
    );
    subject = rendered.subject;
  } catch (caught) {
    const error = signal.aborted ? signal.reason : caught;
    if (error instanceof ClaimLostError) {
      logger.warn({ mail: mail.id, kind: mail.kind }, "mail left to the worker that holds its claim");
      return;
    }
    await recordFailure(courier, mail, error);
    courier.report.failed += 1;
    return;
  }
  // Outside the catch: a mail that left must never be scheduled again as if it had failed.
  await markSent(database, mail.id, subject, courier.now().toISOString());
  courier.report.sent += 1;
}

/** Schedules the mail's next attempt, 1 minute after the first failure, then 2, 4, … 64; or gives it up. */
async function recordFailure(courier: Courier, mail: OutboxMail, error: unknown) {
  const attempts = mail.attempts + 1;
  const isGivenUp = attempts >= MAX_MAIL_ATTEMPTS;
  const retryAt = new Date(courier.now().getTime() + 60_000 * 2 ** (attempts - 1)).toISOString();
  const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  courier.logger.warn({ mail: mail.id, kind: mail.kind, attempt: attempts, reason: lastError }, "mail not delivered");
  await markFailed(courier.database, courier.workerId, {
    id: mail.id,
    attempts,
    lastError,
    retryAt: isGivenUp ? null : retryAt,
  });
}

/** Delivers until nothing is due and nothing is in flight. */
async function drain(courier: Courier) {
  for (;;) {
    await fill(courier);
    if (courier.attempts.size === 0) return;
    await Promise.race([...courier.attempts.values()].map((attempt) => attempt.done));
  }
}

/** Renews the claims in flight, and takes new mails, every `renewMs`. */
function open(courier: Courier) {
  // One beat at a time: with a database slower than `renewMs`, overlapping renewals would end out of order,
  // and one asked for earlier would set a claim's `renewedAt` back and give up a claim that was kept.
  courier.heartbeat ??= setInterval(() => {
    if (courier.beating) return;
    courier.beating = renewAll(courier)
      .then(() => fill(courier))
      .catch((error: unknown) => courier.logger.error({ err: error }, "claiming mails failed"))
      .finally(() => {
        courier.beating = undefined;
      });
  }, courier.renewMs).unref();
}

/** Waits for the mails in flight (their claims renewed meanwhile), then lets go. */
async function close(courier: Courier) {
  courier.isClosing = true;
  while (courier.attempts.size > 0) await Promise.all([...courier.attempts.values()].map((attempt) => attempt.done));
  clearInterval(courier.heartbeat);
  courier.heartbeat = undefined;
  activeWorkers.delete(courier.workerId);
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
  config: RenderConfig,
  options: DeliveryOptions = {},
): Promise<DeliveryReport> {
  const courier = createCourier(database, transport, config, options);
  open(courier);
  try {
    await drain(courier);
  } finally {
    await close(courier);
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
      fill(courier).catch((error: unknown) => (options.logger ?? log).error({ err: error }, "claiming mails failed"));
  };
  open(courier);
  const timer = setInterval(take, options.intervalMs).unref();
  setImmediate(take);
  return {
    async flush() {
      if (!isStopped) await drain(courier);
    },
    async stop() {
      isStopped = true;
      clearInterval(timer);
      await close(courier);
    },
  };
}
