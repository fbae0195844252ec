// A provider's verdict on a payment, applied once: the order validated, or the basket given back to the buyer;
// a payment arriving after its invoice was cancelled is a late payment (docs/decisions/0010-late-payments.md).
import { and, type Database, type Db, eq, rowOf, run, type Statement, schema } from "@ticketing/db";
import type { PaymentModule as PaymentModuleKey, PaymentOutcome } from "@ticketing/shared/constants";
import { conflict, notFound } from "../../lib/errors.ts";
import { enqueueWebhook, orderSource, paidKey, webhookStatement } from "../../lib/webhook-outbox.ts";
import type { Basket } from "../baskets/baskets.ts";
import type { Invoice } from "../invoices/invoice-writing.ts";
import { MAIL_PAYLOADS, mailBasketBuyer } from "../mail/queue.ts";
import { runStatements } from "../waiting-list/offers.ts";
import { holdAgain, LATE_PAYMENT_MODULES, writeLatePaymentRefund } from "./late-payments.ts";

/** A provider's notification, applied at most once: its id is written in the transaction of its effect. */
export interface ProviderEvent {
  moduleKey: PaymentModuleKey;
  id: string;
  type: string;
}

export interface ResolvedPayment {
  changed: boolean;
  basket: Basket;
  /** A late payment that could not be accepted: the refund invoice to pay back (payments/late-refunds.ts). */
  lateRefund?: Invoice;
}

/**
 * Applies a provider's verdict on an intent. Success resolves the invoice exactly once however often the
 * webhook arrives (guarded UPDATE), validates the basket and queues the confirmation mail in the same
 * transaction. Cancel and error close the intent and give the basket back to the buyer (`new`); an error also
 * queues the payment reminder. With `providerEvent`, a notification seen before changes nothing, whatever the
 * order notifications arrive in. A real provider's success on a cancelled invoice is a late payment
 * (docs/decisions/0010-late-payments.md): accepted when its articles can be held again, else to be refunded.
 */
export async function resolvePayment(database: Database, input: PaymentResolution): Promise<ResolvedPayment> {
  for (let attempt = 1; ; attempt++) {
    // A payment that keeps changing between its read and its batch is left to the provider's next notification
    // (a provider sends it again after an error answer) rather than tried for ever.
    if (attempt > MAX_RESOLUTION_ATTEMPTS) throw conflict("errors.try_again");
    const found = await paymentToResolve(database.db, input.intentId, input.pspId);
    if (!found) throw notFound();
    const { intent, invoice, basket } = found;
    // Money for a cancelled invoice is rare and reads much before it decides: it keeps its transaction.
    if (
      input.outcome === "success" &&
      invoice.isCancelled &&
      !invoice.isResolved &&
      LATE_PAYMENT_MODULES.includes(intent.moduleKey)
    )
      return resolveLatePayment(database, input);
    const closed =
      input.outcome === "success"
        ? invoice.isResolved || invoice.isCancelled
        : invoice.isResolved || intent.isCancelled || intent.isError;
    if (closed && !input.providerEvent && input.outcome !== "success") return { changed: false, basket };
    const [first, [seen] = [], ...rest] = await database.batch(resolveStatements(input, found, closed));
    if (seen?.passed === 0) {
      // Nothing written: a notification seen before, or the payment changed since it was read (read it again).
      if (seen.same === 1) return { changed: false, basket };
      continue;
    }
    const reopened = [first, ...rest].find((rows) => (rows?.length ?? 0) > 0)?.[0];
    return closed || !reopened
      ? { changed: false, basket }
      : { changed: true, basket: rowOf(schema.baskets, reopened) };
  }
}

/** Reads and batches of one payment's resolution before it gives up (each retry follows another writer's change). */
const MAX_RESOLUTION_ATTEMPTS = 20;

type PaymentResolution = {
  intentId: number;
  pspId: string;
  outcome: PaymentOutcome;
  now: Date;
  providerEvent?: ProviderEvent;
  /** The provider's id of the money taken (Stripe's `pi_…`), which refunds use. */
  pspPaymentId?: string | null;
};

/** The payment as the resolution reads it before writing (no lock): its intent, invoice, basket and event. */
async function paymentToResolve(db: Db, intentId: number, pspId: string) {
  const row = await db
    .select({
      intent: schema.paymentIntents,
      invoice: schema.invoices,
      basket: schema.baskets,
      reservationMinutes: schema.events.reservationMinutes,
    })
    .from(schema.paymentIntents)
    .innerJoin(schema.invoices, eq(schema.invoices.id, schema.paymentIntents.invoiceId))
    .innerJoin(schema.baskets, eq(schema.baskets.id, schema.invoices.basketId))
    .leftJoin(schema.events, eq(schema.events.id, schema.baskets.eventId))
    .where(and(eq(schema.paymentIntents.id, intentId), eq(schema.paymentIntents.pspId, pspId)))
    .get();
  return row ?? null;
}

/**
 * A payment's resolution as one batch (ADR 0026). Its first statement writes only if the payment is still as it was
 * read (invoice, intent, basket status) — and, for a provider's notification, only the first time (the notification
 * recorded): every later write runs only if the one before it changed its one row (`changes() = 1`). The SELECT
 * after the first says whether it wrote, and whether the payment was still as read.
 */
function resolveStatements(
  input: PaymentResolution,
  { intent, invoice, basket, reservationMinutes }: NonNullable<Awaited<ReturnType<typeof paymentToResolve>>>,
  closed: boolean,
): Statement[] {
  const asRead: Statement = {
    sql: `exists (select 1 from payment_intents p join invoices i on i.id = p.invoice_id
      join baskets b on b.id = i.basket_id where p.id = ? and i.is_resolved = ? and i.is_cancelled = ?
      and p.is_cancelled = ? and p.is_error = ? and b.status = ?)`,
    args: [
      intent.id,
      Number(invoice.isResolved),
      Number(invoice.isCancelled),
      Number(intent.isCancelled),
      Number(intent.isError),
      basket.status,
    ],
  };
  const chain: Statement[] = [];
  /** The next write of the chain: the first guarded by `asRead`, each later one by the one before (before RETURNING). */
  const then = (sql: string, args: Statement["args"]) => {
    const guard = chain.length === 0 ? asRead : { sql: "changes() = 1", args: [] };
    const [body, returning = ""] = sql.split(" returning ");
    const where = `${body} ${body?.includes(" where ") ? "and" : "where"} ${guard.sql}`;
    chain.push({ sql: returning ? `${where} returning ${returning}` : where, args: [...args, ...guard.args] });
  };
  const { providerEvent, now } = input;
  if (providerEvent)
    chain.push({
      sql: `insert into provider_events (module_key, provider_event_id, type) select ?, ?, ? where ${asRead.sql}
        on conflict do nothing`,
      args: [providerEvent.moduleKey, providerEvent.id, providerEvent.type, ...asRead.args],
    });
  const mail = (kind: "order_confirmation" | "payment_reminder") =>
    then(
      `insert into mail_outbox (kind, "to", language, payload) select ?, bi.email, b.language, ?
        from baskets b join billing_information bi on bi.id = b.billing_information_id where b.id = ?`,
      [kind, JSON.stringify(MAIL_PAYLOADS[kind].parse({ basket_id: basket.id })), basket.id],
    );
  if (input.outcome === "success") {
    then("update payment_intents set psp_payment_id = coalesce(psp_payment_id, ?) where id = ?", [
      input.pspPaymentId ?? null,
      intent.id,
    ]);
    if (!closed) {
      then("update invoices set is_resolved = 1, resolved_at = ? where id = ?", [now.toISOString(), invoice.id]);
      then("update baskets set status = 'validated', updated_at = ? where id = ? returning *", [
        now.toISOString(),
        basket.id,
      ]);
      mail("order_confirmation");
      // A waiting list's offer opened into this basket is bought (guarded on its own: it may change no row).
      chain.push(boughtOffer(basket.id, now));
      // The unit's webhooks hear of it: guarded on the basket validated by this batch (its time), and written once
      // per basket whatever (the key), since a chain's guard reads only the statement before it.
      chain.push(
        webhookStatement(
          "order.paid",
          orderSource(basket.id, {
            guard: { sql: "b.status = 'validated' and b.updated_at = ?", args: [now.toISOString()] },
            dedupe: paidKey(basket.id),
          }),
          now,
        ),
      );
    }
  } else if (!closed) {
    const error = input.outcome === "error";
    then(
      "update payment_intents set is_cancelled = is_cancelled or ?, is_error = is_error or ?, error_message = coalesce(?, error_message) where id = ?",
      [Number(!error), Number(error), error ? "The payment provider reported an error" : null, intent.id],
    );
    then("update invoices set is_cancelled = 1 where id = ?", [invoice.id]);
    // The basket goes back to the buyer if it waited for this payment; its row is answered either way.
    const back = "status = 'payment_in_progress'";
    then(
      `update baskets set status = case when ${back} then 'new' else status end,
        expires_at = case when ${back} then ? else expires_at end,
        updated_at = case when ${back} then ? else updated_at end
        where id = ? returning *`,
      [new Date(now.getTime() + (reservationMinutes ?? 30) * 60_000).toISOString(), now.toISOString(), basket.id],
    );
    // A failed payment: the reminder tells the buyer the order still waits, with the way back to pay.
    if (error) mail("payment_reminder");
  }
  const [first, ...rest] = chain;
  if (!first) return [];
  return [first, { sql: `select changes() as passed, ${asRead.sql} as same`, args: asRead.args }, ...rest];
}

/** The resolution of a late payment (docs/decisions/0010-late-payments.md), in a transaction as before. */
async function resolveLatePayment(database: Database, input: PaymentResolution): Promise<ResolvedPayment> {
  const { now, providerEvent } = input;
  return database.transaction(function* (tx) {
    const recorded = providerEvent
      ? yield* run(
          tx
            .insert(schema.providerEvents)
            .values({ moduleKey: providerEvent.moduleKey, providerEventId: providerEvent.id, type: providerEvent.type })
            .onConflictDoNothing()
            .returning()
            .get(),
        )
      : true;
    const intent = yield* run(
      tx
        .select()
        .from(schema.paymentIntents)
        .where(and(eq(schema.paymentIntents.id, input.intentId), eq(schema.paymentIntents.pspId, input.pspId)))
        .get(),
    );
    if (!intent) throw notFound();
    const invoice = yield* run(tx.select().from(schema.invoices).where(eq(schema.invoices.id, intent.invoiceId)).get());
    if (!invoice) throw notFound();
    const basket = yield* run(tx.select().from(schema.baskets).where(eq(schema.baskets.id, invoice.basketId)).get());
    if (!basket) throw notFound();
    if (!recorded) return { changed: false, basket };
    if (input.outcome === "success") {
      if (input.pspPaymentId && !intent.pspPaymentId)
        yield* run(
          tx
            .update(schema.paymentIntents)
            .set({ pspPaymentId: input.pspPaymentId })
            .where(eq(schema.paymentIntents.id, intent.id))
            .run(),
        );
      if (invoice.isCancelled && !invoice.isResolved && LATE_PAYMENT_MODULES.includes(intent.moduleKey))
        return yield* applyLatePayment(tx, basket, invoice, now);
      const resolved = yield* run(
        tx
          .update(schema.invoices)
          .set({ isResolved: true, resolvedAt: now.toISOString() })
          .where(
            and(
              eq(schema.invoices.id, invoice.id),
              eq(schema.invoices.isResolved, false),
              eq(schema.invoices.isCancelled, false),
            ),
          )
          .returning()
          .get(),
      );
      if (!resolved) return { changed: false, basket };
      return yield* validateOrder(tx, basket, now);
    }
    if (invoice.isResolved || intent.isCancelled || intent.isError) return { changed: false, basket };
    yield* run(
      tx
        .update(schema.paymentIntents)
        .set(
          input.outcome === "cancel"
            ? { isCancelled: true }
            : { isError: true, errorMessage: "The payment provider reported an error" },
        )
        .where(eq(schema.paymentIntents.id, intent.id))
        .run(),
    );
    yield* run(tx.update(schema.invoices).set({ isCancelled: true }).where(eq(schema.invoices.id, invoice.id)).run());
    const event = yield* run(tx.select().from(schema.events).where(eq(schema.events.id, basket.eventId)).get());
    const reopened = yield* run(
      tx
        .update(schema.baskets)
        .set({
          status: "new",
          expiresAt: new Date(now.getTime() + (event?.reservationMinutes ?? 30) * 60_000).toISOString(),
          updatedAt: now.toISOString(),
        })
        .where(and(eq(schema.baskets.id, basket.id), eq(schema.baskets.status, "payment_in_progress")))
        .returning()
        .get(),
    );
    // A failed payment: the reminder tells the buyer the order still waits, with the way back to pay.
    if (input.outcome === "error") yield* mailBasketBuyer(tx, basket.id, "payment_reminder", { basket_id: basket.id });
    return { changed: true, basket: reopened ?? basket };
  });
}

/**
 * Money received for a cancelled invoice (inside resolvePayment's transaction): the invoice is paid either way.
 * When its articles can all be held again the order goes through as if paid in time; otherwise a refund invoice
 * is written, to be paid back outside the transaction.
 */
function* applyLatePayment(
  tx: Db,
  basket: Basket,
  invoice: Invoice,
  now: Date,
): Generator<unknown, ResolvedPayment, unknown> {
  const accepted = yield* holdAgain(tx, basket, invoice);
  yield* run(
    tx
      .update(schema.invoices)
      .set({ isResolved: true, resolvedAt: now.toISOString(), isCancelled: false })
      .where(eq(schema.invoices.id, invoice.id))
      .run(),
  );
  if (!accepted) return { changed: true, basket, lateRefund: yield* writeLatePaymentRefund(tx, basket, invoice) };
  // The payment went through after all: its intent is no longer cancelled, as the buyer's pages show it.
  yield* run(
    tx
      .update(schema.paymentIntents)
      .set({ isCancelled: false, isError: false, errorMessage: null })
      .where(eq(schema.paymentIntents.invoiceId, invoice.id))
      .run(),
  );
  return yield* validateOrder(tx, basket, now);
}

/** Marks `bought` the waiting list's offer opened into the basket, once the basket is paid. */
const boughtOffer = (basketId: number, now: Date): Statement => ({
  sql: `update waiting_list_entries set state = 'bought', updated_at = ?
    where basket_id = ? and state in ('offered', 'expired')
    and exists (select 1 from baskets b where b.id = ? and b.status = 'validated')`,
  args: [now.toISOString(), basketId, basketId],
});

/** The order is paid: the basket validated and its confirmation queued (inside resolvePayment's transaction). */
function* validateOrder(tx: Db, basket: Basket, now: Date): Generator<unknown, ResolvedPayment, unknown> {
  const validated = yield* run(
    tx
      .update(schema.baskets)
      .set({ status: "validated", updatedAt: now.toISOString() })
      .where(eq(schema.baskets.id, basket.id))
      .returning()
      .get(),
  );
  yield* mailBasketBuyer(tx, basket.id, "order_confirmation", { basket_id: basket.id });
  yield* runStatements(tx, [boughtOffer(basket.id, now)]);
  yield* enqueueWebhook(tx, "order.paid", orderSource(basket.id, { dedupe: paidKey(basket.id) }), now);
  return { changed: true, basket: validated ?? basket };
}
