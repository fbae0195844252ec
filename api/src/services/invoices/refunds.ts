// Refunds from the back office (docs/design.md §4 "Payments"): the whole basket or chosen articles, paid back through
// the module that took the money, written as a negative invoice (a credit note) related to the invoice paid.
//
// Three steps, so that two staff refunding at once pay back once and a refund never exceeds what was paid:
// (a) one transaction claims the articles by writing the credit note's lines (a selected node is refunded at most
// once: a partial unique index on invoice_lines), (b) the provider pays back, outside any transaction (a network
// call), (c) one transaction resolves the credit note, gives the articles back to the stock and tells the buyer.
// When the provider fails, the claim is undone: its lines deleted, its credit note cancelled, so it can be retried.
import { and, asc, type Database, type Db, desc, eq, inArray, isNull, run, schema } from "@ticketing/db";
import { isGivenBack } from "@ticketing/shared/constants";
import type { RefundMade, RefundRequest } from "@ticketing/shared/schemas/sales";
import { conflict, DomainError, invalid, notFound, providerFailed } from "../../lib/errors.ts";
import { log } from "../../lib/log.ts";
import { enqueueWebhook, refundSource } from "../../lib/webhook-outbox.ts";
import { type Event, getVisibleEvent, type User } from "../accounts/access.ts";
import { basketById } from "../baskets/basket-views.ts";
import { type Basket, heldArticlesOf, releaseSelectedNodes } from "../baskets/baskets.ts";
import { type PaymentDeps, paymentModule } from "../checkout/payments/index.ts";
import { type PaymentIntent, PaymentProviderError } from "../checkout/payments/module.ts";
import { mailBasketBuyer } from "../mail/queue.ts";
import { type Invoice, writeInvoice } from "./invoice-writing.ts";

type SelectedNode = typeof schema.selectedNodes.$inferSelect;

export interface Claim {
  refundInvoice: Invoice;
  /** The intent that took the money; null for a free basket, which nothing paid. */
  intent: PaymentIntent | null;
  /** cents, positive */
  amount: number;
  /** The refunded articles and their options. */
  nodeIds: number[];
}

/**
 * Refunds a paid (`validated`) basket of an event the user may see (404 otherwise): the articles `itemIds` with
 * their options, or every article still held. 409 when the basket is not paid, nothing is left to refund, an article
 * was refunded (or is being refunded) already, or the refund would exceed what is left of the payment; 400 for an id
 * that is not an article of the basket; 502 when the provider could not pay back (nothing changed, retry possible).
 * A free basket, or articles that cost nothing, are refunded without calling the provider. `onMailQueued` is told
 * when the buyer's refund mail was queued.
 */
export async function refundBasket(
  deps: PaymentDeps,
  user: User,
  basketId: number,
  request: RefundRequest,
  now: Date,
): Promise<RefundMade> {
  const { database } = deps;
  const basket = await basketById(database.db, basketId);
  if (!basket) throw notFound();
  const event = await getVisibleEvent(database.db, user, basket.eventId);
  const claim = await claimRefund(database, event, basket, request);

  let pspRefundId: string | null = null;
  if (claim.amount > 0 && claim.intent) {
    try {
      pspRefundId = await payBack(deps, event, claim);
    } catch (error) {
      // The module says nothing was paid back (or there is no module to ask): the claim is undone. Any other error
      // leaves the credit note pending and its articles claimed: money is never paid back twice.
      if (!(error instanceof PaymentProviderError || error instanceof DomainError)) throw error;
      await undoClaim(database, claim.refundInvoice.id);
      if (error instanceof DomainError) throw error;
      (deps.logger ?? log).warn(
        { invoice: claim.refundInvoice.id, basket: basket.id, reason: error.message },
        "refund refused by the provider",
      );
      throw providerFailed("errors.refund_failed");
    }
  }

  const done = await database.transaction(function* (tx) {
    const resolved = yield* resolveRefund(tx, basket, claim, pspRefundId, now);
    if (!resolved) throw conflict("errors.already_refunded");
    const isMailed = yield* mailBasketBuyer(tx, basket.id, "refund", {
      basket_id: basket.id,
      invoice_id: resolved.invoice.id,
    });
    return { ...resolved, isMailed };
  });
  if (done.isMailed) deps.onMailQueued?.();
  return { invoice: done.invoice, amount: claim.amount, basketStatus: done.basketStatus };
}

/**
 * Step (b): the module that took the money pays the claim back, outside any transaction (a network call), the credit
 * note's id as its idempotency key: asked again for the same credit note, the provider answers the same refund.
 * Answers the provider's refund id; throws PaymentProviderError (nothing paid back) or a DomainError (no module).
 */
export async function payBack(deps: PaymentDeps, event: Event, claim: Claim): Promise<string | null> {
  if (claim.amount <= 0 || !claim.intent) return null;
  const { pspRefundId } = await paymentModule(claim.intent.moduleKey).refund(deps, {
    intent: claim.intent,
    refundInvoice: claim.refundInvoice,
    amount: claim.amount,
    event,
  });
  return pspRefundId;
}

/**
 * Step (c), inside a transaction: the credit note resolved, its articles given back to the stock, the basket
 * `refunded` when nothing is left held. Null when the credit note was cancelled meanwhile (its claim undone). The
 * caller tells the buyer, in the same transaction.
 */
export function* resolveRefund(
  tx: Db,
  basket: Pick<Basket, "id" | "status">,
  claim: Claim,
  pspRefundId: string | null,
  now: Date,
): Generator<unknown, { invoice: Invoice; basketStatus: Basket["status"] } | null, unknown> {
  const invoice = yield* run(
    tx
      .update(schema.invoices)
      .set({ isResolved: true, resolvedAt: now.toISOString(), pspRefundId })
      // Not cancelled: only this request undoes its claim. (Resolved already only if a sweep paid it back too,
      // with the same idempotency key: the articles still go back to the stock.)
      .where(and(eq(schema.invoices.id, claim.refundInvoice.id), eq(schema.invoices.isCancelled, false)))
      .returning()
      .get(),
  );
  if (!invoice) return null;
  yield* releaseSelectedNodes(tx, claim.nodeIds, "refunded", now);
  const stillHeld = yield* run(
    tx.select({ id: schema.selectedNodes.id }).from(schema.selectedNodes).where(heldArticlesOf(basket.id)).get(),
  );
  const updated = yield* run(
    tx
      .update(schema.baskets)
      .set({ ...(stillHeld ? {} : { status: "refunded" as const }), updatedAt: now.toISOString() })
      .where(and(eq(schema.baskets.id, basket.id), eq(schema.baskets.status, "validated")))
      .returning()
      .get(),
  );
  yield* enqueueWebhook(tx, "order.refunded", refundSource(invoice.id), now);
  return { invoice, basketStatus: updated?.status ?? basket.status };
}

/**
 * A credit note claimed and not resolved yet (its lines written, the provider maybe asked), as a claim to pay back
 * again: a cancellation's refund cut by a crash resumes with it, the same idempotency key. Null when it is resolved,
 * cancelled or not a credit note.
 */
export async function pendingClaim(db: Db, creditNoteId: number): Promise<Claim | null> {
  const refundInvoice = await db.select().from(schema.invoices).where(eq(schema.invoices.id, creditNoteId)).get();
  if (!refundInvoice?.relatedInvoiceId || refundInvoice.isResolved || refundInvoice.isCancelled) return null;
  const lines = await db
    .select({ selectedNodeId: schema.invoiceLines.selectedNodeId })
    .from(schema.invoiceLines)
    .where(eq(schema.invoiceLines.invoiceId, creditNoteId))
    .all();
  const intents = await db
    .select()
    .from(schema.paymentIntents)
    .where(eq(schema.paymentIntents.invoiceId, refundInvoice.relatedInvoiceId))
    .orderBy(desc(schema.paymentIntents.id))
    .all();
  return {
    refundInvoice,
    intent: intents.find((row) => !row.isError && !row.isCancelled) ?? intents[0] ?? null,
    amount: -refundInvoice.amount,
    nodeIds: lines.map((line) => line.selectedNodeId),
  };
}

/**
 * Step (a), in one transaction: checks the basket and the articles, finds the invoice paid and the intent that took
 * the money, and writes the credit note with its lines (pending until the provider paid back).
 */
export async function claimRefund(
  database: Database,
  event: Event,
  basket: Pick<Basket, "id">,
  request: RefundRequest,
  /** Written in the claim's transaction, once the credit note is: a cancellation notes which credit note is its. */
  alongside?: (tx: Db, claim: Claim) => Generator<unknown, void, unknown>,
): Promise<Claim> {
  try {
    return await database.transaction(function* (tx) {
      const current = yield* run(tx.select().from(schema.baskets).where(eq(schema.baskets.id, basket.id)).get());
      if (current?.status === "refunded") throw conflict("errors.refund_nothing_left");
      if (current?.status !== "validated") throw conflict("errors.refund_not_paid");
      const articles = yield* run(
        tx
          .select()
          .from(schema.selectedNodes)
          .where(and(eq(schema.selectedNodes.basketId, basket.id), eq(schema.selectedNodes.isArticle, true)))
          .orderBy(asc(schema.selectedNodes.id))
          .all(),
      );
      const chosen = chooseArticles(articles, request.itemIds);
      const options = yield* run(
        tx
          .select()
          .from(schema.selectedNodes)
          .where(
            and(
              inArray(
                schema.selectedNodes.parentId,
                chosen.map((article) => article.id),
              ),
              eq(schema.selectedNodes.status, "held"),
            ),
          )
          .orderBy(asc(schema.selectedNodes.id))
          .all(),
      );
      const nodes = chosen.flatMap((article) => [article, ...options.filter((o) => o.parentId === article.id)]);
      const nodeIds = nodes.map((node) => node.id);
      // Claimed by a refund under way (its lines written, the provider not done yet): refused before the index is.
      const claimed = yield* run(
        tx
          .select({ id: schema.invoiceLines.id })
          .from(schema.invoiceLines)
          .where(and(inArray(schema.invoiceLines.selectedNodeId, nodeIds), eq(schema.invoiceLines.isRefund, true)))
          .get(),
      );
      if (claimed) throw conflict("errors.already_refunded");

      const paid = yield* run(
        tx
          .select()
          .from(schema.invoices)
          .where(
            and(
              eq(schema.invoices.basketId, basket.id),
              eq(schema.invoices.isResolved, true),
              eq(schema.invoices.isCancelled, false),
              isNull(schema.invoices.relatedInvoiceId),
            ),
          )
          .orderBy(desc(schema.invoices.id))
          .get(),
      );
      if (!paid) throw conflict("errors.refund_not_paid");
      // Each line is refunded at the price it was paid (the paid invoice's line; the article's price otherwise).
      const paidLines = yield* run(
        tx
          .select({ selectedNodeId: schema.invoiceLines.selectedNodeId, amount: schema.invoiceLines.amount })
          .from(schema.invoiceLines)
          .where(
            and(
              eq(schema.invoiceLines.invoiceId, paid.id),
              inArray(schema.invoiceLines.selectedNodeId, nodeIds),
              eq(schema.invoiceLines.isRefund, false),
            ),
          )
          .all(),
      );
      const priceOf = (node: SelectedNode) =>
        paidLines.find((line) => line.selectedNodeId === node.id)?.amount ?? node.price;
      const amount = nodes.reduce((sum, node) => sum + priceOf(node), 0);
      const refunds = yield* run(
        tx
          .select({ amount: schema.invoices.amount })
          .from(schema.invoices)
          .where(and(eq(schema.invoices.relatedInvoiceId, paid.id), eq(schema.invoices.isCancelled, false)))
          .all(),
      );
      const left = refunds.reduce((sum, refund) => sum + refund.amount, paid.amount);
      if (amount > left) throw conflict("errors.refund_exceeds_paid");
      const intents = yield* run(
        tx
          .select()
          .from(schema.paymentIntents)
          .where(eq(schema.paymentIntents.invoiceId, paid.id))
          .orderBy(desc(schema.paymentIntents.id))
          .all(),
      );
      const intent = intents.find((row) => !row.isError && !row.isCancelled) ?? intents[0] ?? null;
      if (amount > 0 && !intent) throw conflict("errors.refund_not_paid");
      const refundInvoice = yield* writeInvoice(tx, {
        basket: current,
        unitId: event.unitId,
        amount: -amount,
        dueDate: null,
        relatedInvoiceId: paid.id,
        reason: request.reason,
        isRefund: true,
        lines: nodes.map((node) => ({ selectedNodeId: node.id, title: node.title, amount: -priceOf(node) })),
      });
      const claim = { refundInvoice, intent, amount, nodeIds };
      if (alongside) yield* alongside(tx, claim);
      return claim;
    });
  } catch (error) {
    // The hard stop: another refund wrote a line for one of these nodes first.
    if (isRefundedOnceViolation(error)) throw conflict("errors.already_refunded");
    throw error;
  }
}

/** The articles to refund: those asked for (each an article of the basket, still held), or every held one. */
function chooseArticles(articles: SelectedNode[], itemIds: number[] | undefined): SelectedNode[] {
  if (!itemIds) {
    const held = articles.filter((article) => article.status === "held");
    if (held.length === 0) throw conflict("errors.refund_nothing_left");
    return held;
  }
  const chosen = itemIds.map((id) => {
    const article = articles.find((row) => row.id === id);
    if (!article || isGivenBack(article.status))
      throw invalid("errors.refund_item_unknown", { item_ids: "errors.refund_item_unknown" });
    return article;
  });
  if (chosen.some((article) => article.status === "refunded")) throw conflict("errors.already_refunded");
  return chosen;
}

/** The unique index that refunds a selected node at most once, as either driver reports it (possibly wrapped). */
function isRefundedOnceViolation(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1)
    if (/UNIQUE constraint failed: invoice_lines\.selected_node_id/.test(cause.message)) return true;
  return false;
}

/**
 * The provider did not pay back: the credit note is cancelled (it keeps its number) and its lines go, so its
 * articles may be refunded again. One resolved meanwhile (paid back after all, by another attempt with the same
 * idempotency key) keeps its lines.
 */
export async function undoClaim(database: Database, refundInvoiceId: number) {
  await database.transaction(function* (tx) {
    const cancelled = yield* run(
      tx
        .update(schema.invoices)
        .set({ isCancelled: true })
        .where(and(eq(schema.invoices.id, refundInvoiceId), eq(schema.invoices.isResolved, false)))
        .returning({ id: schema.invoices.id })
        .get(),
    );
    if (cancelled)
      yield* run(tx.delete(schema.invoiceLines).where(eq(schema.invoiceLines.invoiceId, refundInvoiceId)).run());
  });
}
