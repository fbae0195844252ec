// The webhook worker's claims on deliveries (docs/decisions/0045-webhooks.md), as the mail worker's (0008): a claim
// is a lease (`next_attempt_at`) naming its worker (`claimed_by`), well over an attempt's time limit; a killed
// worker's claims are released as soon as a restart on the same machine sees its process gone.
import { and, asc, type Database, eq, gt, inArray, isNotNull, isNull, lte, or, run, schema } from "@ticketing/db";
import { isWorkerGone } from "../../lib/worker-ids.ts";

const { webhookEndpoints: endpoints, webhookDeliveries: deliveries } = schema;

/** How long a claim hides a delivery from other workers: well over an attempt's time limit. */
export const WEBHOOK_LEASE_MS = 60_000;

/** Frees the claims of workers that are certainly gone (killed): their deliveries are due again at once. */
export async function releaseClaimsOfGoneWorkers(database: Database, now: string) {
  const claimants = await database.db
    .selectDistinct({ claimedBy: deliveries.claimedBy })
    .from(deliveries)
    .where(and(eq(deliveries.status, "pending"), isNotNull(deliveries.claimedBy), gt(deliveries.nextAttemptAt, now)))
    .all();
  const gone = claimants.flatMap(({ claimedBy }) => (claimedBy && isWorkerGone(claimedBy) ? [claimedBy] : []));
  if (gone.length === 0) return;
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .update(deliveries)
        .set({ nextAttemptAt: now, claimedBy: null })
        .where(and(eq(deliveries.status, "pending"), inArray(deliveries.claimedBy, gone)))
        .run(),
    );
  });
}

/** Claims up to `limit` due deliveries of enabled endpoints, oldest first, until the lease's end. */
export function claimDue(database: Database, claim: { workerId: string; limit: number; now: Date }) {
  const { now } = claim;
  const leaseEnd = new Date(now.getTime() + WEBHOOK_LEASE_MS).toISOString();
  return database.transaction(function* (tx) {
    const due = tx
      .select({ id: deliveries.id })
      .from(deliveries)
      .innerJoin(endpoints, eq(endpoints.id, deliveries.endpointId))
      .where(
        and(
          eq(deliveries.status, "pending"),
          eq(endpoints.enabled, true),
          or(isNull(deliveries.nextAttemptAt), lte(deliveries.nextAttemptAt, now.toISOString())),
        ),
      )
      .orderBy(asc(deliveries.id))
      .limit(claim.limit);
    return yield* run(
      tx
        .update(deliveries)
        .set({ nextAttemptAt: leaseEnd, claimedBy: claim.workerId })
        .where(and(inArray(deliveries.id, due), eq(deliveries.status, "pending")))
        .returning()
        .all(),
    );
  });
}
