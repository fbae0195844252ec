// Online payments still unpaid after the event's payment term: given back to the stock, the buyer told by mail.
import { and, type Database, type Db, eq, inArray, lt, ne, run, schema } from "@ticketing/db";
import { PAYMENT_TERM_EXPIRED } from "@ticketing/shared/constants";
import { enqueueWebhook, orderSource } from "../../lib/webhook-outbox.ts";
import { releaseSelectedNodes } from "../baskets/baskets.ts";
import { mailBasketBuyer } from "../mail/queue.ts";

/**
 * Online payments still unpaid after the event's payment term: the intent is cancelled (the demo provider's
 * hosted page reads that state and no longer takes the payment), the invoice cancelled, the articles given
 * back to the stock, the basket left empty and `new`, and the buyer told by mail. Each basket moves in its
 * own transaction, guarded on its status: a payment that succeeds first wins, and one arriving after finds
 * the invoice cancelled and changes nothing. Point-of-sale payments wait for staff and do not expire.
 * Returns the ids of the baskets it expired.
 */
export async function expireUnpaidPayments(database: Database, now: Date): Promise<number[]> {
  const due = await database.db
    .select({ basketId: schema.baskets.id })
    .from(schema.baskets)
    .innerJoin(schema.invoices, eq(schema.invoices.basketId, schema.baskets.id))
    .innerJoin(schema.paymentIntents, eq(schema.paymentIntents.invoiceId, schema.invoices.id))
    .where(
      and(
        eq(schema.baskets.status, "payment_in_progress"),
        lt(schema.baskets.expiresAt, now.toISOString()),
        eq(schema.invoices.isResolved, false),
        eq(schema.invoices.isCancelled, false),
        ne(schema.paymentIntents.moduleKey, "point_of_sale"),
        eq(schema.paymentIntents.isCancelled, false),
        eq(schema.paymentIntents.isError, false),
      ),
    )
    .all();
  const expired: number[] = [];
  for (const basketId of new Set(due.map((row) => row.basketId))) {
    const done = await database.transaction(function* (tx) {
      const basket = yield* run(
        tx
          .update(schema.baskets)
          .set({ status: "new", updatedAt: now.toISOString() })
          .where(
            and(
              eq(schema.baskets.id, basketId),
              eq(schema.baskets.status, "payment_in_progress"),
              lt(schema.baskets.expiresAt, now.toISOString()),
            ),
          )
          .returning()
          .get(),
      );
      if (!basket) return false;
      yield* closeUnpaid(tx, [basketId], PAYMENT_TERM_EXPIRED, now);
      yield* mailBasketBuyer(tx, basket.id, "payment_expired", { basket_id: basket.id });
      // Its order is cancelled: the unit's webhooks hear of it (the amount is the cancelled invoice's).
      yield* enqueueWebhook(tx, "order.cancelled", orderSource(basket.id), now);
      return true;
    });
    if (done) expired.push(basketId);
  }
  return expired;
}

/**
 * Closes baskets' unpaid orders, in a transaction body: their unresolved invoices and the payments under way on them
 * cancelled (`reason` their error: a payment that still arrives is a late one, paid back: docs/decisions/0010), and
 * their held lines given back to the stock. The caller sets the baskets' status.
 */
export function* closeUnpaid(
  tx: Db,
  basketIds: number[],
  reason: string,
  now: Date,
): Generator<unknown, void, unknown> {
  const invoices = yield* run(
    tx
      .update(schema.invoices)
      .set({ isCancelled: true })
      .where(
        and(
          inArray(schema.invoices.basketId, basketIds),
          eq(schema.invoices.isResolved, false),
          eq(schema.invoices.isCancelled, false),
        ),
      )
      .returning({ id: schema.invoices.id })
      .all(),
  );
  if (invoices.length)
    yield* run(
      tx
        .update(schema.paymentIntents)
        .set({ isCancelled: true, errorMessage: reason })
        .where(
          and(
            inArray(
              schema.paymentIntents.invoiceId,
              invoices.map((invoice) => invoice.id),
            ),
            eq(schema.paymentIntents.isCancelled, false),
            eq(schema.paymentIntents.isError, false),
          ),
        )
        .run(),
    );
  const held = yield* run(
    tx
      .select({ id: schema.selectedNodes.id })
      .from(schema.selectedNodes)
      .where(and(inArray(schema.selectedNodes.basketId, basketIds), eq(schema.selectedNodes.status, "held")))
      .all(),
  );
  yield* releaseSelectedNodes(
    tx,
    held.map((row) => row.id),
    "released",
    now,
  );
}
