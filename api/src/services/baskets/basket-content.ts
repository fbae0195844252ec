// What a basket holds: its lines (articles with their options) and totals, its promotion codes and the visitor they
// make with the login's email, and the lines priced again when the codes change.
import { and, asc, type Database, type Db, eq, prepared, run, schema, sql } from "@ticketing/db";
import type { Visitor } from "@ticketing/shared/conditions";
import type { Language, SelectedNodeStatus } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import { inList, jsonList } from "../../lib/id-lists.ts";
import type { Event } from "../accounts/access.ts";
import { getCatalogue, nodePrice } from "../catalogue/catalogue.ts";
import type { Basket, FrontendLogin } from "./rows.ts";

const promotionCodesOfBasket = prepared((db) =>
  db
    .select({
      id: schema.selectedPromotionCodes.id,
      name: schema.promotionCodes.name,
      value: schema.promotionCodes.value,
    })
    .from(schema.selectedPromotionCodes)
    .innerJoin(schema.promotionCodes, eq(schema.promotionCodes.id, schema.selectedPromotionCodes.promotionCodeId))
    .where(eq(schema.selectedPromotionCodes.basketId, sql.placeholder("basketId")))
    .orderBy(asc(schema.selectedPromotionCodes.id))
    .prepare(),
);

export async function activePromotionCodes(db: Db, basketId: number) {
  return promotionCodesOfBasket(db).all({ basketId });
}

export async function visitorOf(db: Db, login: FrontendLogin, basket: Basket | null): Promise<Visitor> {
  const codes = basket ? await activePromotionCodes(db, basket.id) : [];
  return { email: login.email, promotionCodes: codes.map((c) => c.value) };
}

export type BasketContent = { items: ReturnType<typeof shapeItems>; total: number };

const linesOfBaskets = prepared((db) =>
  db
    .select()
    .from(schema.selectedNodes)
    .where(and(inList(schema.selectedNodes.basketId, "basketIds"), inList(schema.selectedNodes.status, "statuses")))
    .orderBy(asc(schema.selectedNodes.id))
    .prepare(),
);

/**
 * The lines of baskets in each of `statuses`, read with one query: per status, per basket (every basket named has
 * an entry), articles with their options, titled in `language` as kept when added; totals are derived.
 */
export async function basketItemsIn(
  db: Db,
  basketIds: number[],
  statuses: SelectedNodeStatus[],
  language: Language = "en",
) {
  const result = new Map<SelectedNodeStatus, Map<number, BasketContent>>();
  const rows = basketIds.length
    ? await linesOfBaskets(db).all({ basketIds: jsonList(basketIds), statuses: jsonList(statuses) })
    : [];
  const grouped = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.status} ${row.basketId}`;
    const own = grouped.get(key);
    if (own) own.push(row);
    else grouped.set(key, [row]);
  }
  for (const status of statuses) {
    const perBasket = new Map<number, BasketContent>();
    for (const basketId of basketIds) {
      const own = grouped.get(`${status} ${basketId}`) ?? [];
      perBasket.set(basketId, { items: shapeItems(own, language), total: own.reduce((sum, r) => sum + r.price, 0) });
    }
    result.set(status, perBasket);
  }
  return result;
}

/** The held lines of baskets (or those in another `status`): articles with their options; totals are derived. */
export async function basketItems(
  db: Db,
  basketIds: number[],
  status: SelectedNodeStatus = "held",
  language: Language = "en",
) {
  return (await basketItemsIn(db, basketIds, [status], language)).get(status) as Map<number, BasketContent>;
}

/** Lines as articles with their options, each title in `language` as the line kept it (docs/decisions/0043). */
export function shapeItems(rows: (typeof schema.selectedNodes.$inferSelect)[], language: Language = "en") {
  return rows
    .filter((r) => r.isArticle)
    .map((article) => {
      const options = rows.filter((r) => r.parentId === article.id);
      return {
        id: article.id,
        nodeId: article.nodeId,
        title: inLanguage(article.title, article.titleFr, language),
        price: article.price + options.reduce((sum, o) => sum + o.price, 0),
        articlePrice: article.price,
        options: options.map((o) => ({
          id: o.id,
          nodeId: o.nodeId,
          title: inLanguage(o.title, o.titleFr, language),
          price: o.price,
        })),
      };
    });
}

const heldTotal = prepared((db) =>
  db
    .select({ total: sql<number | null>`sum(${schema.selectedNodes.price})` })
    .from(schema.selectedNodes)
    .where(and(eq(schema.selectedNodes.basketId, sql.placeholder("basketId")), eq(schema.selectedNodes.status, "held")))
    .prepare(),
);

export async function basketTotal(db: Db, basketId: number): Promise<number> {
  const row = await heldTotal(db).get({ basketId });
  return Number(row?.total ?? 0);
}

/**
 * Applying or removing a promotion code changes what the basket's lines cost: they are priced again for the
 * visitor as they now are (the server decides prices, docs/design.md §4). Only a `new` basket changes.
 */
export async function repriceBasket(database: Database, input: { event: Event; basket: Basket; login: FrontendLogin }) {
  const catalogue = await getCatalogue(database.db, input.event.id);
  const visitor = await visitorOf(database.db, input.login, input.basket);
  await database.transaction(function* (tx) {
    const rows = yield* run(
      tx
        .select()
        .from(schema.selectedNodes)
        .where(and(eq(schema.selectedNodes.basketId, input.basket.id), eq(schema.selectedNodes.status, "held")))
        .all(),
    );
    for (const row of rows) {
      const node = row.nodeId === null ? undefined : catalogue.byId.get(row.nodeId);
      if (!node) continue;
      const price = nodePrice(catalogue, node, visitor);
      if (price !== row.price)
        yield* run(tx.update(schema.selectedNodes).set({ price }).where(eq(schema.selectedNodes.id, row.id)).run());
    }
  });
}
