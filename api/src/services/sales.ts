// Back-office sales: the baskets of the events a user may see.
import { and, type Db, eq, schema } from "@ticketing/db";
import { BASKET_STATUSES, type BasketStatus } from "@ticketing/shared/constants";
import type { Basket, BasketDetail } from "@ticketing/shared/schemas/sales";
import { notFound } from "../lib/errors.ts";
import { idFilter, type ListOptions, type ListQuery, listPage } from "../lib/list-query.ts";
import { getVisibleEvent, inVisibleEvents, type User } from "./access.ts";
import { basketById, presentBasketDetail, presentBaskets } from "./basket-views.ts";
import { refundsOf } from "./refunds.ts";

const BASKET_COLUMNS = {
  id: schema.baskets.id,
  status: schema.baskets.status,
  createdAt: schema.baskets.createdAt,
};

export const BASKET_LIST: ListOptions = {
  sortable: Object.keys(BASKET_COLUMNS),
  idFilters: ["id", "eventId", "event"],
};

/**
 * A page of the baskets of the events the user may see, filtered by event, status and id. Testing baskets stay
 * out of the back office's figures unless `preview=true` asks for them (DESIGN.md 4).
 */
export async function listBaskets(db: Db, user: User, query: ListQuery): Promise<{ rows: Basket[]; total: number }> {
  const f = query.filter;
  const status =
    typeof f.status === "string" && (BASKET_STATUSES as readonly string[]).includes(f.status)
      ? (f.status as BasketStatus)
      : undefined;
  const preview = f.preview === true || f.preview === "true";
  const where = and(
    await inVisibleEvents(db, user, schema.baskets.eventId),
    idFilter(query, "eventId", schema.baskets.eventId) ?? idFilter(query, "event", schema.baskets.eventId),
    status ? eq(schema.baskets.status, status) : undefined,
    eq(schema.baskets.testing, preview),
    idFilter(query, "id", schema.baskets.id),
  );
  const { rows, total } = await listPage(db, schema.baskets, where, query, BASKET_COLUMNS);
  return { rows: await presentBaskets(db, rows), total };
}

/**
 * A basket of an event the user may see, with its promotion codes, payments, refunded articles and what was paid
 * and refunded; otherwise 404.
 */
export async function getBasket(db: Db, user: User, id: number): Promise<BasketDetail> {
  const basket = await basketById(db, id);
  if (!basket) throw notFound();
  await getVisibleEvent(db, user, basket.eventId);
  return { ...(await presentBasketDetail(db, basket)), ...(await refundsOf(db, basket.id)) };
}
