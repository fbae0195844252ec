// A basket whose reservation time ran out (docs/design.md §4 "Basket lifecycle"): its lines are given back to the stock
// as `expired`, not `released`, so that when the buyer returns the ticket office can hold them again, each article
// with its options, and its form answers, which hang off the same lines. The billing information stays on the basket.
import { and, type Database, eq, inArray, run, schema, sql } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import { selectionErrors } from "@ticketing/shared/groups";
import { conflict } from "../../lib/errors.ts";
import type { Event } from "../accounts/access.ts";
import { type Catalogue, getCatalogue, isVisible, selectionTree } from "../catalogue/catalogue.ts";
import { basketItems, repriceBasket, visitorOf } from "./basket-content.ts";
import { type BuyerHoldings, fitsCaps, heldByBuyerIn, noteHolding } from "./buyer-caps.ts";
import { assertBasketActionsAllowed, heldArticlesOf, holdUntil, movesPerLimit, takeStock } from "./holds.ts";
import type { Basket, FrontendLogin } from "./rows.ts";

type SelectedNodeRow = typeof schema.selectedNodes.$inferSelect;

/** Whether the line's article and options are still in the tree and offered to this visitor now. */
const isStillOffered = (
  catalogue: Catalogue,
  rows: SelectedNodeRow[],
  visitor: Parameters<typeof isVisible>[2],
  now: Date,
) =>
  rows.every((row) => {
    const node = row.nodeId === null ? undefined : catalogue.byId.get(row.nodeId);
    return node !== undefined && isVisible(catalogue, node, visitor, now);
  });

/**
 * Renews the basket's hold (`POST /frontend/baskets/:id/hold-again`), at most the event's `max_hold_renewals` times
 * (409 past it, docs/decisions/0036): its expiry moves to the reservation time from now, and its expired articles
 * are held again, each with its options, all or nothing per article: it must still be offered, fit the basket's
 * item maximum, its group rules and the buyer's caps (buyer-caps.ts), and every stock it counts in must have room.
 * Stock and caps are decided in the write transaction, the stock by the same guarded `used + n <= maximum` as an
 * add. What cannot be held is released for good. Answers the articles held again and those no longer available.
 */
export async function holdExpiredAgain(
  database: Database,
  input: { event: Event; basket: Basket; login: FrontendLogin; now: Date; language?: Language },
) {
  const { event, basket, login, now } = input;
  assertBasketActionsAllowed(event, basket.testing, now);
  const catalogue = await getCatalogue(database.db, event.id);
  const visitor = await visitorOf(database.db, login, basket);
  const outcome = await database.transaction(function* (tx) {
    const current = yield* run(
      tx
        .select({ status: schema.baskets.status, holdRenewals: schema.baskets.holdRenewals })
        .from(schema.baskets)
        .where(eq(schema.baskets.id, basket.id))
        .get(),
    );
    if (current?.status !== "new") throw conflict("errors.basket_not_modifiable");
    // A waiting list's offer lasts the time its organiser set: its basket's hold is not renewed (docs/decisions/0038).
    const offer = yield* run(
      tx
        .select({ id: schema.waitingListEntries.id })
        .from(schema.waitingListEntries)
        .where(and(eq(schema.waitingListEntries.basketId, basket.id), eq(schema.waitingListEntries.state, "offered")))
        .get(),
    );
    if (offer) throw conflict("errors.waiting_list_offer_basket");
    if (current.holdRenewals >= event.maxHoldRenewals)
      throw conflict("errors.hold_renewals_used", { max: event.maxHoldRenewals });
    const expired = yield* run(
      tx
        .select()
        .from(schema.selectedNodes)
        .where(and(eq(schema.selectedNodes.basketId, basket.id), eq(schema.selectedNodes.status, "expired")))
        .all(),
    );
    const links = expired.length
      ? yield* run(
          tx
            .select()
            .from(schema.selectedNodeLimits)
            .where(
              inArray(
                schema.selectedNodeLimits.selectedNodeId,
                expired.map((row) => row.id),
              ),
            )
            .all(),
        )
      : [];
    const held = yield* run(
      tx
        .select({ nodeId: schema.selectedNodes.nodeId })
        .from(schema.selectedNodes)
        .where(heldArticlesOf(basket.id))
        .all(),
    );
    const heldNodeIds = held.map((row) => row.nodeId).filter((id): id is number => id !== null);
    const configurationOf = (nodeId: number | null) =>
      nodeId === null ? undefined : catalogue.byId.get(nodeId)?.configuration;
    // The buyer's holdings are read only when a cap may refuse an article.
    const capped =
      event.maxTicketsPerBuyer !== null ||
      expired.some((row) => row.isArticle && (configurationOf(row.nodeId)?.maxPerBuyer ?? null) !== null);
    const holdings: BuyerHoldings | null = capped ? yield* heldByBuyerIn(tx, basket.createdById) : null;
    const restored: number[] = [];
    const unavailable: number[] = [];
    for (const article of expired.filter((row) => row.isArticle)) {
      const rows = [article, ...expired.filter((row) => row.parentId === article.id)];
      const ids = rows.map((row) => row.id);
      const fits =
        isStillOffered(catalogue, rows, visitor, now) &&
        heldNodeIds.length < event.maxItemsPerBasket &&
        article.nodeId !== null &&
        (!holdings || fitsCaps(event, configurationOf(article.nodeId), holdings)) &&
        !selectionErrors(selectionTree(catalogue.root), [...heldNodeIds, article.nodeId]).some(
          (error) => error.kind === "above_max" || error.kind === "single_choice",
        );
      const taken = fits
        ? yield* takeStock(tx, movesPerLimit(links.filter((l) => ids.includes(l.selectedNodeId))))
        : false;
      yield* run(
        tx
          .update(schema.selectedNodes)
          .set({ status: taken ? "held" : "released" })
          .where(inArray(schema.selectedNodes.id, ids))
          .run(),
      );
      if (taken && article.nodeId !== null) {
        heldNodeIds.push(article.nodeId);
        restored.push(article.id);
        if (holdings) noteHolding(holdings, article.configurationId);
      } else unavailable.push(article.id);
    }
    yield* run(
      tx
        .update(schema.baskets)
        .set({
          expiresAt: holdUntil(event, now),
          updatedAt: now.toISOString(),
          holdRenewals: sql`${schema.baskets.holdRenewals} + 1`,
        })
        .where(eq(schema.baskets.id, basket.id))
        .run(),
    );
    return { restored, unavailable };
  });
  // Prices are the server's, decided now (promotion codes and price rules may have changed meanwhile).
  if (outcome.restored.length) await repriceBasket(database, { event, basket, login });
  const [held, released] = await Promise.all([
    basketItems(database.db, [basket.id], "held", input.language),
    basketItems(database.db, [basket.id], "released", input.language),
  ]);
  return {
    restored: (held.get(basket.id)?.items ?? []).filter((item) => outcome.restored.includes(item.id)),
    unavailable: (released.get(basket.id)?.items ?? []).filter((item) => outcome.unavailable.includes(item.id)),
  };
}
