// The refunds of a cancelled event (docs/decisions/0047-cancelling-an-event.md), worked through basket by basket by
// the refund service's three steps (services/invoices/refunds.ts): (a) the credit note claimed, its id written on the
// basket's row in the same transaction; (b) the provider asked, the credit note's id as its idempotency key; (c) the
// refund resolved, the buyer's mail queued and the row marked refunded, in one transaction. A process killed between
// (a) and (c) leaves the row `refunding` with its credit note pending: the next run asks the provider again with the
// same credit note, so Stripe answers the refund it made, and nobody is paid back twice. A provider that fails leaves
// the row `failed`, its credit note still pending for the retry; the other baskets go on.
import { and, type Database, type Db, eq, gt, inArray, run, schema } from "@ticketing/db";
import { conflict, DomainError, notFound } from "../../lib/errors.ts";
import type { Logger } from "../../lib/log.ts";
import { log } from "../../lib/log.ts";
import type { User } from "../accounts/access.ts";
import type { PaymentDeps } from "../checkout/payments/module.ts";
import { type Claim, claimRefund, payBack, pendingClaim, resolveRefund } from "../invoices/refunds.ts";
import { mailBasketBuyer } from "../mail/queue.ts";
import { CANCELLATION_REASON, type CancellationRow, cancellationFor } from "./cancellation.ts";

const rows = schema.eventCancellationBaskets;
/** Rows read per round: the worker reads again after each batch, so a retry asked meanwhile is seen. */
const BATCH = 25;

export interface CancellationDeps extends PaymentDeps {
  now?: () => Date;
}

/** One run per database at a time in this process; a run asked for while one works makes it go round once more. */
const running = new WeakMap<Database, { done: Promise<number>; again: boolean }>();

/**
 * Works through the refunds of every cancelled event (or of one) still to make: `pending` rows, and `refunding` ones
 * a killed process left. Answers how many baskets were refunded. Safe to run at start-up, on a timer, and after a
 * cancellation or a retry, in several processes at once: a basket's credit note is claimed once (the refund
 * service's unique index), paid back with its own idempotency key, and resolved once.
 */
export function runCancellations(deps: CancellationDeps): Promise<number> {
  const current = running.get(deps.database);
  if (current) {
    current.again = true;
    return current.done;
  }
  const state = { again: false, done: Promise.resolve(0) };
  state.done = (async () => {
    let refunded = 0;
    try {
      do {
        state.again = false;
        refunded += await workThrough(deps);
      } while (state.again);
    } finally {
      running.delete(deps.database);
    }
    return refunded;
  })();
  running.set(deps.database, state);
  return state.done;
}

async function workThrough(deps: CancellationDeps): Promise<number> {
  let refunded = 0;
  let afterId = 0;
  for (;;) {
    const due = await deps.database.db
      .select()
      .from(rows)
      .where(and(inArray(rows.state, ["pending", "refunding"]), afterId ? gt(rows.id, afterId) : undefined))
      .orderBy(rows.id)
      .limit(BATCH)
      .all();
    if (due.length === 0) return refunded;
    for (const row of due) {
      afterId = row.id;
      if (await refundOne(deps, row)) refunded += 1;
    }
  }
}

/** Refunds one basket of a cancellation through its payment module; answers whether it is refunded now. */
async function refundOne(deps: CancellationDeps, row: CancellationRow): Promise<boolean> {
  const { database } = deps;
  const logger: Logger = deps.logger ?? log;
  const now = () => deps.now?.() ?? new Date();
  const basket = await database.db.select().from(schema.baskets).where(eq(schema.baskets.id, row.basketId)).get();
  const event = await database.db.select().from(schema.events).where(eq(schema.events.id, row.eventId)).get();
  if (!basket || !event) return false;

  let claim: Claim | null = row.creditNoteId ? await pendingClaim(database.db, row.creditNoteId) : null;
  if (row.creditNoteId && !claim && (await isResolved(database.db, row.creditNoteId))) {
    // Resolved by another process between our read and now: its transaction marked the row too.
    return false;
  }
  if (claim) {
    // A credit note this cancellation claimed before (a crash, or a failure retried): paid back again with its own
    // idempotency key.
    await setRow(database, row.id, { state: "refunding", attempts: row.attempts + 1 }, now());
  } else {
    try {
      claim = await claimRefund(database, event, basket, { reason: CANCELLATION_REASON }, function* (tx, made) {
        yield* run(
          tx
            .update(rows)
            .set({
              state: "refunding",
              creditNoteId: made.refundInvoice.id,
              amount: made.amount,
              attempts: row.attempts + 1,
              updatedAt: now().toISOString(),
            })
            .where(eq(rows.id, row.id))
            .run(),
        );
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // Nothing left to refund (staff refunded it meanwhile), or a staff refund is under way: the organiser sees why.
      await setRow(database, row.id, { state: "failed", error: error.messages.join("; ") }, now());
      return false;
    }
  }

  let pspRefundId: string | null;
  try {
    pspRefundId = await payBack(deps, event, claim);
  } catch (error) {
    // Whatever failed, the credit note stays claimed and pending: a retry asks again with the same key, so a refund
    // the provider made without our hearing of it is answered, not made twice.
    const reason = error instanceof Error ? error.message : String(error);
    logger.warn({ basket: basket.id, invoice: claim.refundInvoice.id, reason }, "cancellation refund failed");
    await setRow(database, row.id, { state: "failed", error: reason.slice(0, 500) }, now());
    return false;
  }
  return settle(deps, row, basket, claim, pspRefundId, "refunded", now());
}

/**
 * Step (c) of a cancellation's refund, in one transaction: the credit note resolved (once: a second process finding
 * it resolved changes nothing), the buyer's cancellation mail queued with it, the row marked.
 */
async function settle(
  deps: PaymentDeps,
  row: CancellationRow,
  basket: { id: number; status: (typeof schema.baskets.$inferSelect)["status"] },
  claim: Claim,
  pspRefundId: string | null,
  state: "refunded" | "refunded_by_hand",
  now: Date,
): Promise<boolean> {
  const done = await deps.database.transaction(function* (tx) {
    const note = yield* run(
      tx.select().from(schema.invoices).where(eq(schema.invoices.id, claim.refundInvoice.id)).get(),
    );
    if (!note || note.isResolved) return { settled: false, mailed: false };
    const resolved = yield* resolveRefund(tx, basket, claim, pspRefundId, now);
    if (!resolved) return { settled: false, mailed: false };
    // A buyer told already (paid at a point of sale: at the cancellation) gets the usual refund mail now.
    const mailed = row.isMailed
      ? yield* mailBasketBuyer(tx, basket.id, "refund", { basket_id: basket.id, invoice_id: resolved.invoice.id })
      : yield* mailBasketBuyer(tx, basket.id, "event_cancelled", {
          basket_id: basket.id,
          invoice_id: resolved.invoice.id,
        });
    yield* run(
      tx
        .update(rows)
        .set({
          state,
          error: null,
          amount: claim.amount,
          isMailed: row.isMailed || Boolean(mailed),
          updatedAt: now.toISOString(),
        })
        .where(eq(rows.id, row.id))
        .run(),
    );
    return { settled: true, mailed: Boolean(mailed) };
  });
  if (done.mailed) deps.onMailQueued?.();
  return done.settled;
}

async function isResolved(db: Db, invoiceId: number) {
  const note = await db.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId)).get();
  return note?.isResolved ?? false;
}

async function setRow(
  database: Database,
  rowId: number,
  change: Partial<Pick<CancellationRow, "state" | "error" | "attempts">>,
  now: Date,
) {
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .update(rows)
        .set({ ...change, updatedAt: now.toISOString() })
        .where(eq(rows.id, rowId))
        .run(),
    );
  });
}

/**
 * `POST /events/:id/cancellation/baskets/:basketId/refunded-by-hand`: the organiser paid a basket back themselves
 * (paid at a point of sale, or a refund the provider kept refusing): its credit note written (or the pending one
 * resolved) without asking any provider, the buyer's refund mail queued. 404 for a basket not in the cancellation,
 * 409 for one refunded already or with the provider now.
 */
export async function markRefundedByHand(
  deps: CancellationDeps,
  user: User,
  ids: { eventId: number; basketId: number },
  now: Date,
): Promise<void> {
  const { database } = deps;
  const event = await cancellationFor(database.db, user, ids.eventId);
  const row = await database.db
    .select()
    .from(rows)
    .where(and(eq(rows.eventId, event.id), eq(rows.basketId, ids.basketId)))
    .get();
  if (!row) throw notFound();
  if (row.state !== "by_hand" && row.state !== "failed") throw conflict("errors.cancellation_refund_not_by_hand");
  const basket = await database.db.select().from(schema.baskets).where(eq(schema.baskets.id, row.basketId)).get();
  if (!basket) throw notFound();
  const claim =
    (row.creditNoteId ? await pendingClaim(database.db, row.creditNoteId) : null) ??
    (await claimRefund(database, event, basket, { reason: CANCELLATION_REASON }, function* (tx, made) {
      yield* run(tx.update(rows).set({ creditNoteId: made.refundInvoice.id }).where(eq(rows.id, row.id)).run());
    }));
  if (!(await settle(deps, row, basket, claim, null, "refunded_by_hand", now)))
    throw conflict("errors.already_refunded");
}
