// Cancelling an event (issue 35, docs/decisions/0047-cancelling-an-event.md). The organiser's request writes, in ONE
// transaction, everything that must hold at once: the cancellation and its message, the event closed (sales stop),
// its waiting list closed, its open baskets closed and their stock given back, and the list of paid orders to refund.
// The refunds themselves are made afterwards, basket by basket, by cancellation-worker.ts: a durable job that a
// restart carries on. Point-of-sale orders are listed "to refund by hand": the organiser pays them back and marks them.

import { and, type Database, type Db, eq, inArray, run, type SQL, schema, sql } from "@ticketing/db";
import type { CancellationBasketState, CancellationRefundWay, PaymentModule } from "@ticketing/shared/constants";
import type { EventCancellation, EventCancellationRequest } from "@ticketing/shared/schemas/event-cancellation";
import { conflict, forbidden, notFound } from "../../lib/errors.ts";
import { enqueueWebhook, eventStatusSource, orderSource } from "../../lib/webhook-outbox.ts";
import { type Event, getVisibleEvent, type User } from "../accounts/access.ts";
import { roleIn } from "../accounts/units.ts";
import { closeUnpaid } from "../checkout/expired-payments.ts";
import { mailBasketBuyer } from "../mail/queue.ts";
import { closeEntryStatements, runStatements } from "../waiting-list/offers.ts";
import { findCancellation } from "./cancellation-views.ts";

const rows = schema.eventCancellationBaskets;
export type CancellationRow = typeof rows.$inferSelect;

/** Why the intents of the open baskets a cancellation closed were cancelled. */
export const EVENT_CANCELLED = "event_cancelled";
/** The credit notes' reason (a document kept for the accounts, read in both languages). */
export const CANCELLATION_REASON = "Event cancelled / Événement annulé";

/** The event if the user sees it (404 otherwise) and may cancel it: its unit's owners and superusers (403). */
export async function cancellableEvent(db: Db, user: User, eventId: number): Promise<Event> {
  const event = await getVisibleEvent(db, user, eventId);
  if (!user.isSuperuser && (await roleIn(db, user, event.unitId)) !== "owner")
    throw forbidden("errors.event_cancel_owner_only");
  return event;
}

interface PaidOrder {
  basketId: number;
  /** cents left of the payment */
  amount: number;
  module: PaymentModule | null;
}

/**
 * The event's paid orders with articles still held (sold, or reopened to edit their answers), each with what is
 * left of its payment and the module that took it (the intent the refund service pays back through). Preview
 * baskets are staff's tests, not sales: they are left as they are.
 */
function paidOrders(eventId: number): SQL {
  return sql`select b.id as basketId,
      p.amount + coalesce((select sum(c.amount) from invoices c
        where c.related_invoice_id = p.id and c.is_cancelled = 0), 0) as amount,
      (select i.module_key from payment_intents i where i.invoice_id = p.id
        order by (i.is_error or i.is_cancelled), i.id desc limit 1) as module
    from baskets b
    join invoices p on p.id = (select max(x.id) from invoices x where x.basket_id = b.id and x.is_resolved = 1
      and x.is_cancelled = 0 and x.related_invoice_id is null)
    where b.event_id = ${eventId} and b.testing = 0 and b.status in ('validated', 'edition_in_progress')
      and exists (select 1 from selected_nodes s where s.basket_id = b.id and s.is_article = 1 and s.status = 'held')
    order by b.id`;
}

const wayOf = (module: PaymentModule | null): CancellationRefundWay =>
  module === "point_of_sale" ? "by_hand" : "provider";

/**
 * `POST /events/:id/cancellation`: cancels a public or closed event, for good. 409 when it is a draft (delete it),
 * archived, or cancelled already. Answers the cancellation's progress: nothing refunded yet, the worker starts next.
 */
export async function cancelEvent(
  database: Database,
  user: User,
  eventId: number,
  request: EventCancellationRequest,
  now: Date,
): Promise<{ progress: EventCancellation; mailed: number }> {
  const event = await cancellableEvent(database.db, user, eventId);
  if (event.status !== "public" && event.status !== "closed")
    throw conflict("errors.event_cancel_status", { status: event.status });
  const at = now.toISOString();
  const mailed = await database.transaction(function* (tx) {
    if (yield* run(findCancellation(tx, eventId))) throw conflict("errors.event_already_cancelled");
    yield* run(
      tx
        .insert(schema.eventCancellations)
        .values({
          eventId,
          message: request.message,
          messageFr: request.messageFr,
          cancelledById: user.id,
          createdAt: at,
        })
        .run(),
    );
    // Sales stop: a closed event takes no basket, no payment (eventWindows); the cancellation keeps it closed.
    yield* run(tx.update(schema.events).set({ status: "closed" }).where(eq(schema.events.id, eventId)).run());
    yield* enqueueWebhook(tx, "event.status_changed", eventStatusSource(eventId, event.status), now);
    yield* closeWaitingList(tx, eventId, at);
    yield* closeOpenBaskets(tx, eventId, now);
    // Reopened to edit answers: the edit is over, the order is refunded as paid.
    yield* run(
      tx
        .update(schema.baskets)
        .set({ status: "validated", updatedAt: at })
        .where(and(eq(schema.baskets.eventId, eventId), eq(schema.baskets.status, "edition_in_progress")))
        .run(),
    );
    const orders = (yield* run(tx.all<PaidOrder>(paidOrders(eventId)))) as PaidOrder[];
    let mailed = 0;
    for (const order of orders) {
      const way = wayOf(order.module);
      // Paid at a point of sale: the buyer is told now that the organiser pays them back by hand.
      const isMailed =
        way === "by_hand" &&
        (yield* mailBasketBuyer(tx, order.basketId, "event_cancelled", { basket_id: order.basketId }));
      if (isMailed) mailed += 1;
      yield* run(
        tx
          .insert(rows)
          .values({
            eventId,
            basketId: order.basketId,
            way,
            module: order.module,
            state: way === "by_hand" ? "by_hand" : "pending",
            amount: order.amount,
            isMailed: Boolean(isMailed),
            updatedAt: at,
          })
          .run(),
      );
    }
    return mailed;
  });
  return { progress: await cancellationProgress(database.db, event), mailed };
}

/**
 * The event's waiting list stops taking buyers and offering, and every entry still in line or holding an unopened
 * offer is removed, what it held given back (an offer opened into a basket is the basket's, closed with it).
 */
function* closeWaitingList(tx: Db, eventId: number, at: string): Generator<unknown, void, unknown> {
  const { waitingLists, waitingListEntries: entries } = schema;
  yield* run(
    tx
      .update(waitingLists)
      .set({ accepting: false, automatic: false, updatedAt: at })
      .where(eq(waitingLists.eventId, eventId))
      .run(),
  );
  const live = yield* run(
    tx
      .select({ id: entries.id })
      .from(entries)
      .where(and(eq(entries.eventId, eventId), inArray(entries.state, ["waiting", "offering", "offered"])))
      .all(),
  );
  for (const entry of live) yield* runStatements(tx, closeEntryStatements(entry.id, "removed", at));
  // Offers opened into a basket: their stock is the basket's lines, given back with the open baskets.
  yield* run(
    tx
      .update(entries)
      .set({ state: "removed", updatedAt: at })
      .where(and(eq(entries.eventId, eventId), inArray(entries.state, ["waiting", "offering", "offered"])))
      .run(),
  );
}

/**
 * The event's open baskets (being filled, or waiting for their payment): their unpaid invoices and payments
 * cancelled (a payment that still arrives is a late one, paid back: docs/decisions/0010), their articles given back
 * to the stock, the basket left empty and `new`, as an expired payment leaves it.
 */
function* closeOpenBaskets(tx: Db, eventId: number, now: Date): Generator<unknown, void, unknown> {
  const open = yield* run(
    tx
      .select({ id: schema.baskets.id, status: schema.baskets.status })
      .from(schema.baskets)
      .where(and(eq(schema.baskets.eventId, eventId), inArray(schema.baskets.status, ["new", "payment_in_progress"])))
      .all(),
  );
  if (open.length === 0) return;
  // An order waiting for its payment is cancelled: the unit's webhooks hear of it (a basket being filled is no order).
  for (const basket of open)
    if (basket.status === "payment_in_progress")
      yield* enqueueWebhook(tx, "order.cancelled", orderSource(basket.id), now);
  const basketIds = open.map((basket) => basket.id);
  yield* closeUnpaid(tx, basketIds, EVENT_CANCELLED, now);
  yield* run(
    tx
      .update(schema.baskets)
      .set({ status: "new", updatedAt: now.toISOString() })
      .where(inArray(schema.baskets.id, basketIds))
      .run(),
  );
}

/** `GET /events/:id/cancellation`: what a cancellation would do, or where its refunds stand. */
export async function getCancellation(db: Db, user: User, eventId: number): Promise<EventCancellation> {
  return cancellationProgress(db, await getVisibleEvent(db, user, eventId));
}

export async function cancellationProgress(db: Db, event: Event): Promise<EventCancellation> {
  const cancellation = await findCancellation(db, event.id);
  if (!cancellation) {
    const orders = await db.all<PaidOrder>(paidOrders(event.id));
    const byHand = orders.filter((order) => wayOf(order.module) === "by_hand").length;
    return {
      eventId: event.id,
      isCancelled: false,
      message: null,
      messageFr: null,
      cancelledAt: null,
      ordersToRefund: orders.length - byHand,
      toRefundByHand: byHand,
      refunded: 0,
      refundedByHand: 0,
      failed: 0,
      inProgress: 0,
      refundedAmount: 0,
      mailsQueued: 0,
      isDone: false,
      baskets: [],
    };
  }
  const listed = await db
    .select({
      row: rows,
      reference: schema.baskets.unikey,
      firstName: schema.billingInformation.firstName,
      lastName: schema.billingInformation.lastName,
      email: schema.billingInformation.email,
    })
    .from(rows)
    .innerJoin(schema.baskets, eq(schema.baskets.id, rows.basketId))
    .leftJoin(schema.billingInformation, eq(schema.billingInformation.id, schema.baskets.billingInformationId))
    .where(eq(rows.eventId, event.id))
    .orderBy(rows.id)
    .all();
  const count = (...states: CancellationBasketState[]) => listed.filter(({ row }) => states.includes(row.state)).length;
  return {
    eventId: event.id,
    isCancelled: true,
    message: cancellation.message,
    messageFr: cancellation.messageFr,
    cancelledAt: cancellation.createdAt,
    ordersToRefund: listed.filter(({ row }) => row.way === "provider").length,
    toRefundByHand: listed.filter(({ row }) => row.way === "by_hand").length,
    refunded: count("refunded"),
    refundedByHand: count("refunded_by_hand"),
    failed: count("failed"),
    inProgress: count("pending", "refunding"),
    refundedAmount: listed
      .filter(({ row }) => row.state === "refunded" || row.state === "refunded_by_hand")
      .reduce((sum, { row }) => sum + row.amount, 0),
    mailsQueued: listed.filter(({ row }) => row.isMailed).length,
    isDone: count("pending", "refunding") === 0,
    baskets: listed.map(({ row, reference, firstName, lastName, email }) => ({
      basketId: row.basketId,
      reference,
      buyer: [firstName, lastName].filter(Boolean).join(" "),
      email: email ?? null,
      amount: row.amount,
      module: row.module,
      way: row.way,
      state: row.state,
      error: row.error,
      attempts: row.attempts,
    })),
  };
}

/** The cancellation of an event the user may cancel; 404 when the event is not cancelled. */
export async function cancellationFor(db: Db, user: User, eventId: number) {
  const event = await cancellableEvent(db, user, eventId);
  if (!(await findCancellation(db, event.id))) throw notFound("errors.event_not_cancelled");
  return event;
}

/**
 * `POST /events/:id/cancellation/retry`: the failed refunds go back to the worker's list (a credit note they left
 * pending is paid back with its own idempotency key, never a new one). Answers how many.
 */
export async function retryFailedRefunds(database: Database, user: User, eventId: number, now: Date) {
  await cancellationFor(database.db, user, eventId);
  return database.transaction(function* (tx) {
    const retried = yield* run(
      tx
        .update(rows)
        .set({ state: "pending", updatedAt: now.toISOString() })
        .where(and(eq(rows.eventId, eventId), eq(rows.state, "failed")))
        .returning({ id: rows.id })
        .all(),
    );
    return retried.length;
  });
}
