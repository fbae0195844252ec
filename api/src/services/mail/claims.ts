// The delivery worker's claims on outbox rows (docs/decisions/0008-mail-delivery-and-large-orders.md): a claim
// is a short lease (`next_attempt_at`) naming its worker (`claimed_by`), renewed while the worker works on the
// mail. A live worker's claim never runs out; a dead worker's claim runs out within the lease, and at once when
// a restart on the same machine can tell that the process which held it is gone.
import { and, asc, type Database, eq, gt, inArray, isNotNull, isNull, like, lte, or, run, schema } from "@ticketing/db";
import { ERASED_EMAIL_DOMAIN } from "@ticketing/shared/schemas/personal-data";
import { isWorkerGone } from "../../lib/worker-ids.ts";
import type { OutboxMail } from "./queue.ts";

export { activeWorkers, createWorkerId } from "../../lib/worker-ids.ts";

const { mailOutbox } = schema;

/** Frees, for any worker to take now, the claims of workers that are certainly gone (see `isWorkerGone`). */
export async function releaseClaimsOfGoneWorkers(database: Database, now: string) {
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

/** Claims up to `limit` mails due at `now` for `workerId`, until `leaseEnd`, oldest first. */
export function claimDueMails(
  database: Database,
  claim: { workerId: string; limit: number; now: string; leaseEnd: string },
): Promise<OutboxMail[]> {
  return database.transaction(function* (tx) {
    // A mail queued to an erased address (the waiting list's offers are queued in SQL) is never sent (ADR 0046).
    yield* run(
      tx
        .update(mailOutbox)
        .set({ status: "cancelled", nextAttemptAt: null, claimedBy: null })
        .where(and(eq(mailOutbox.status, "pending"), like(mailOutbox.to, `%@${ERASED_EMAIL_DOMAIN}`)))
        .run(),
    );
    const due = tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.status, "pending"),
          or(isNull(mailOutbox.nextAttemptAt), lte(mailOutbox.nextAttemptAt, claim.now)),
        ),
      )
      .orderBy(asc(mailOutbox.id))
      .limit(claim.limit);
    return yield* run(
      tx
        .update(mailOutbox)
        .set({ nextAttemptAt: claim.leaseEnd, claimedBy: claim.workerId })
        .where(inArray(mailOutbox.id, due))
        .returning()
        .all(),
    );
  });
}

/**
 * Keeps `workerId`'s claims on `ids` until `leaseEnd`: the renewal names the worker, so a claim another worker
 * took is not renewed. The ids whose claim was kept.
 */
export function renewClaims(database: Database, workerId: string, ids: number[], leaseEnd: string) {
  return database.transaction(function* (tx) {
    const rows = yield* run(
      tx
        .update(mailOutbox)
        .set({ nextAttemptAt: leaseEnd })
        .where(and(inArray(mailOutbox.id, ids), eq(mailOutbox.claimedBy, workerId), eq(mailOutbox.status, "pending")))
        .returning({ id: mailOutbox.id })
        .all(),
    );
    return new Set(rows.map((row) => row.id));
  });
}

/** Records a mail as sent (unless it is no longer pending). */
export async function markSent(database: Database, id: number, subject: string, sentAt: string) {
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .update(mailOutbox)
        .set({ status: "sent", subject, sentAt, nextAttemptAt: null, claimedBy: null, lastError: null })
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, "pending")))
        .run(),
    );
  });
}

/**
 * Records a failed attempt of a mail `workerId` still holds: retried at `retryAt`, or given up (`failed`); the
 * claim is let go either way.
 */
export async function markFailed(
  database: Database,
  workerId: string,
  failure: { id: number; attempts: number; lastError: string; retryAt: string | null },
) {
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .update(mailOutbox)
        .set({
          attempts: failure.attempts,
          lastError: failure.lastError,
          status: failure.retryAt ? "pending" : "failed",
          nextAttemptAt: failure.retryAt,
          claimedBy: null,
        })
        .where(and(eq(mailOutbox.id, failure.id), eq(mailOutbox.status, "pending"), eq(mailOutbox.claimedBy, workerId)))
        .run(),
    );
  });
}
