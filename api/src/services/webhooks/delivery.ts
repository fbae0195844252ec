// Delivering the webhook outbox (docs/decisions/0045-webhooks.md), modelled on the mail worker (mail/delivery.ts):
// a worker claims due deliveries as leases naming it (released at once when a restart can tell it is gone), POSTs
// each signed body with a time limit, logs every attempt, and retries on a fixed schedule of at least 3 days. An
// endpoint with nothing delivered for 3 days since the first failure of its streak is switched off and the unit's
// owners are mailed. A delivery is at least once: killed between the receiver's answer and its mark, it comes
// again with the same `Webhook-Id`, which the documented receiver takes once.
import { and, type Database, eq, run, schema, sql } from "@ticketing/db";
import {
  WEBHOOK_DISABLE_AFTER_SECONDS,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
  WEBHOOK_TIMEOUT_SECONDS,
} from "@ticketing/shared/constants";
import { webhookUrlProblem } from "@ticketing/shared/schemas/webhooks";
import { signWebhook } from "@ticketing/shared/webhook-signature";
import { type Log, log } from "../../lib/log.ts";
import { decryptSecret } from "../../lib/secrets.ts";
import { activeWorkers, createWorkerId } from "../../lib/worker-ids.ts";
import { enqueueMail } from "../mail/queue.ts";
import { claimDue, releaseClaimsOfGoneWorkers } from "./claims.ts";

const { webhookEndpoints: endpoints, webhookDeliveries: deliveries, webhookAttempts: attempts } = schema;
type DeliveryRow = typeof deliveries.$inferSelect;

/** Deliveries one worker sends at once. */
const CONCURRENCY = 8;
/** The most of a receiver's error text kept in the log. */
const ERROR_LENGTH = 500;

export interface WebhookDeliveryOptions {
  logger?: Log;
  /** The worker's clock: of due times, leases, timestamps and the retry schedule, so a test moves time itself. */
  now?: () => Date;
  workerId?: string;
  /** An attempt's time limit (10 s). */
  timeoutMs?: number;
  concurrency?: number;
  /** The product's secret, which seals the endpoints' secrets at rest (lib/secrets.ts). */
  secretKey: string;
  /** Told when the worker queued mail (an endpoint switched off), so the mail worker sends it now. */
  onMailQueued?: () => void;
}

export interface WebhookReport {
  delivered: number;
  failed: number;
}

interface Courier {
  database: Database;
  logger: Log;
  now: () => Date;
  workerId: string;
  timeoutMs: number;
  concurrency: number;
  onMailQueued?: () => void;
  secretKey: string;
  report: WebhookReport;
  /** The deliveries being sent, by id: a slow receiver holds one slot, never the queue. */
  inFlight: Map<number, Promise<void>>;
  claiming: Promise<void> | undefined;
  /** Asked to claim while a claim ran: claim again after it (what it could not see yet may be due). */
  claimAgain: boolean;
  lastGoneCheck: number;
  isClosing: boolean;
}

function createCourier(database: Database, options: WebhookDeliveryOptions): Courier {
  const courier: Courier = {
    database,
    logger: options.logger ?? log,
    now: options.now ?? (() => new Date()),
    workerId: options.workerId ?? createWorkerId(),
    timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_SECONDS * 1000,
    concurrency: options.concurrency ?? CONCURRENCY,
    onMailQueued: options.onMailQueued,
    secretKey: options.secretKey,
    report: { delivered: 0, failed: 0 },
    inFlight: new Map(),
    claiming: undefined,
    claimAgain: false,
    lastGoneCheck: Number.NEGATIVE_INFINITY,
    isClosing: false,
  };
  activeWorkers.add(courier.workerId);
  return courier;
}

interface Outcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** One POST of the delivery, signed now; 2xx is delivered, anything else (a redirect too) a failure. */
async function post(courier: Courier, delivery: DeliveryRow, endpoint: { url: string; secret: string }) {
  const started = performance.now();
  const timestamp = Math.floor(courier.now().getTime() / 1000);
  const done = (statusCode: number | null, error: string | null): Outcome => ({
    statusCode,
    error: error?.slice(0, ERROR_LENGTH) ?? null,
    durationMs: Math.round(performance.now() - started),
  });
  // Checked again at each attempt: only https, or http to this machine, is ever fetched.
  const problem = webhookUrlProblem(endpoint.url);
  if (problem) return done(null, `refused address (${problem})`);
  try {
    const response = await fetch(endpoint.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "ticketing-webhooks/1",
        "webhook-id": delivery.messageId,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signWebhook(endpoint.secret, delivery.messageId, timestamp, delivery.payload),
      },
      body: delivery.payload,
      redirect: "manual",
      signal: AbortSignal.timeout(courier.timeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return done(response.status, ok ? null : `HTTP ${response.status}`);
  } catch (error) {
    const cause =
      error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    return done(null, timedOut ? `no answer within ${courier.timeoutMs / 1000} s` : cause);
  }
}

/**
 * Records an attempt of a delivery the worker still holds: delivered, or failed and due again on the schedule
 * (given up after its last step). A failure starts (or goes on with) the endpoint's failing streak; one that
 * has lasted 3 days switches the endpoint off and mails the unit's owners, once. A success ends the streak.
 */
async function record(courier: Courier, delivery: DeliveryRow, outcome: Outcome) {
  const at = courier.now();
  const time = at.toISOString();
  const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const attemptsMade = delivery.attempts + 1;
  const wait = WEBHOOK_RETRY_SCHEDULE_SECONDS[attemptsMade - 1];
  const retryAt = wait === undefined ? null : new Date(at.getTime() + wait * 1000).toISOString();
  const mailed = await courier.database.transaction(function* (tx) {
    const held = and(
      eq(deliveries.id, delivery.id),
      eq(deliveries.status, "pending"),
      eq(deliveries.claimedBy, courier.workerId),
    );
    const updated = yield* run(
      tx
        .update(deliveries)
        .set(
          ok
            ? {
                status: "delivered",
                attempts: attemptsMade,
                lastStatusCode: outcome.statusCode,
                lastError: null,
                deliveredAt: time,
                nextAttemptAt: null,
                claimedBy: null,
              }
            : {
                status: retryAt ? "pending" : "failed",
                attempts: attemptsMade,
                lastStatusCode: outcome.statusCode,
                lastError: outcome.error,
                nextAttemptAt: retryAt,
                claimedBy: null,
              },
        )
        .where(held)
        .returning({ id: deliveries.id })
        .get(),
    );
    // Another worker took it (this one's lease ran out): its outcome is that worker's to record.
    if (!updated) return false;
    yield* run(
      tx
        .insert(attempts)
        .values({ deliveryId: delivery.id, attemptedAt: time, ...outcome })
        .run(),
    );
    if (ok) {
      yield* run(tx.update(endpoints).set({ failingSince: null }).where(eq(endpoints.id, delivery.endpointId)).run());
      return false;
    }
    const limit = new Date(at.getTime() - WEBHOOK_DISABLE_AFTER_SECONDS * 1000).toISOString();
    const switchedOff = yield* run(
      tx
        .update(endpoints)
        .set({
          failingSince: sql`coalesce(${endpoints.failingSince}, ${time})`,
          enabled: sql`case when ${endpoints.enabled} = 1 and coalesce(${endpoints.failingSince}, ${time}) <= ${limit}
            then 0 else ${endpoints.enabled} end`,
          disabledAt: sql`case when ${endpoints.enabled} = 1 and coalesce(${endpoints.failingSince}, ${time}) <= ${limit}
            then ${time} else ${endpoints.disabledAt} end`,
        })
        .where(eq(endpoints.id, delivery.endpointId))
        .returning({ unitId: endpoints.unitId, disabledAt: endpoints.disabledAt })
        .get(),
    );
    if (switchedOff?.disabledAt !== time) return false;
    const owners = yield* run(
      tx
        .select({ email: schema.users.email })
        .from(schema.memberships)
        .innerJoin(schema.users, eq(schema.users.id, schema.memberships.userId))
        .where(
          and(
            eq(schema.memberships.unitId, switchedOff.unitId),
            eq(schema.memberships.role, "owner"),
            eq(schema.users.isActive, true),
          ),
        )
        .all(),
    );
    for (const owner of owners)
      yield* enqueueMail(tx, {
        kind: "webhook_disabled",
        to: owner.email,
        language: "en",
        payload: { endpoint_id: delivery.endpointId },
      });
    courier.logger.warn({ endpoint: delivery.endpointId }, "webhook endpoint switched off after 3 days of failures");
    return owners.length > 0;
  });
  if (mailed) courier.onMailQueued?.();
  if (ok) courier.report.delivered += 1;
  else {
    courier.report.failed += 1;
    courier.logger.warn(
      { delivery: delivery.id, endpoint: delivery.endpointId, attempt: attemptsMade, reason: outcome.error },
      "webhook not delivered",
    );
  }
}

async function deliver(courier: Courier, delivery: DeliveryRow) {
  const endpoint = await courier.database.db
    .select({ url: endpoints.url, secretEncrypted: endpoints.secretEncrypted })
    .from(endpoints)
    .where(eq(endpoints.id, delivery.endpointId))
    .get();
  if (!endpoint) return;
  const secret = decryptSecret(courier.secretKey, endpoint.secretEncrypted);
  const outcome = secret
    ? await post(courier, delivery, { url: endpoint.url, secret })
    : { statusCode: null, error: "the endpoint's secret cannot be read: roll it", durationMs: 0 };
  await record(courier, delivery, outcome);
}

/** How often a worker looks for the claims of workers that are gone (at once when it starts). */
const GONE_CHECK_MS = 5_000;

/** Claims due deliveries for the free slots and starts them; one claim at a time, again if asked meanwhile. */
function fill(courier: Courier): Promise<void> {
  if (courier.isClosing) return Promise.resolve();
  if (courier.claiming) {
    courier.claimAgain = true;
    return courier.claiming;
  }
  courier.claiming = claimAndStart(courier).finally(() => {
    courier.claiming = undefined;
    if (courier.claimAgain) {
      courier.claimAgain = false;
      void fill(courier).catch((error: unknown) => courier.logger.error({ err: error }, "claiming webhooks failed"));
    }
  });
  return courier.claiming;
}

async function claimAndStart(courier: Courier) {
  if (performance.now() - courier.lastGoneCheck >= GONE_CHECK_MS) {
    courier.lastGoneCheck = performance.now();
    await releaseClaimsOfGoneWorkers(courier.database, courier.now().toISOString());
  }
  const free = courier.concurrency - courier.inFlight.size;
  if (free <= 0) return;
  const claim = { workerId: courier.workerId, limit: free, now: courier.now() };
  for (const delivery of await claimDue(courier.database, claim)) {
    const done = deliver(courier, delivery)
      .catch((error: unknown) =>
        courier.logger.error({ err: error, delivery: delivery.id }, "webhook outcome not recorded"),
      )
      .finally(() => {
        courier.inFlight.delete(delivery.id);
        // A free slot takes the next delivery at once.
        void fill(courier).catch((error: unknown) => courier.logger.error({ err: error }, "claiming webhooks failed"));
      });
    courier.inFlight.set(delivery.id, done);
  }
}

/** Delivers until nothing is due and nothing is in flight. */
async function drain(courier: Courier) {
  for (;;) {
    await fill(courier);
    if (courier.inFlight.size === 0 && !courier.claiming) return;
    await Promise.race([...courier.inFlight.values(), ...(courier.claiming ? [courier.claiming] : [])]);
  }
}

/** Takes no more deliveries and waits for those in flight. */
async function close(courier: Courier) {
  courier.isClosing = true;
  await courier.claiming;
  while (courier.inFlight.size > 0) await Promise.all([...courier.inFlight.values()]);
  activeWorkers.delete(courier.workerId);
}

/** Delivers every webhook due now (tests, one-off runs); safe beside other workers. */
export async function deliverDueWebhooks(database: Database, options: WebhookDeliveryOptions): Promise<WebhookReport> {
  const courier = createCourier(database, options);
  try {
    await drain(courier);
  } finally {
    await close(courier);
  }
  return courier.report;
}

export interface WebhookWorker {
  /** Takes what is due now, at once (after a transaction queued deliveries). */
  wake(): void;
  /** Delivers everything due now (and what is in flight). */
  flush(): Promise<void>;
  /** Takes no more deliveries and waits for those in flight. */
  stop(): Promise<void>;
}

/** Takes due deliveries every `intervalMs`, when woken, and as soon as a slot frees, for the life of the process. */
export function startWebhookWorker(
  database: Database,
  options: WebhookDeliveryOptions & { intervalMs: number },
): WebhookWorker {
  const courier = createCourier(database, options);
  const take = () => {
    fill(courier).catch((error: unknown) => courier.logger.error({ err: error }, "claiming webhooks failed"));
  };
  const timer = setInterval(take, options.intervalMs).unref();
  setImmediate(take);
  return {
    wake: take,
    async flush() {
      if (!courier.isClosing) await drain(courier);
    },
    async stop() {
      clearInterval(timer);
      await close(courier);
    },
  };
}
