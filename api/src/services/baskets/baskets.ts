// A buyer's baskets: the basket row and the login that owns it, found only among the caller's own. Opening one and
// the add are add-to-basket.ts; what a basket holds, basket-content.ts; holds and their release, holds.ts (README.md).
import { and, type Db, desc, eq, prepared, schema, sql } from "@ticketing/db";
import { notFound } from "../../lib/errors.ts";
import { inList, jsonList } from "../../lib/id-lists.ts";

// Named here too for the services and tests that import them from this file.
export { addSelectedNode } from "./add-to-basket.ts";
export { basketItems, basketTotal } from "./basket-content.ts";
export {
  heldArticlesOf,
  movesPerLimit,
  releaseExpiredHolds,
  releaseSelectedNodes,
  removeSelectedNode,
  takeStock,
} from "./holds.ts";

import type { Basket, FrontendLogin } from "./rows.ts";

export type { Basket, FrontendLogin };

const basketById = prepared((db) =>
  db
    .select()
    .from(schema.baskets)
    .where(eq(schema.baskets.id, sql.placeholder("id")))
    .prepare(),
);

/** The basket if it belongs to one of the caller's frontend logins; otherwise 404. */
export async function findOwnedBasket(db: Db, loginIds: number[], basketId: number): Promise<Basket> {
  const basket = await basketById(db).get({ id: basketId });
  if (!basket || !loginIds.includes(basket.createdById)) throw notFound();
  return basket;
}

const loginById = prepared((db) =>
  db
    .select()
    .from(schema.frontendLogins)
    .where(eq(schema.frontendLogins.id, sql.placeholder("id")))
    .prepare(),
);

/**
 * The caller's newest login for the event and testing flag, or 404. A caller holds a few logins (one per event and
 * mode visited): each is read by its key, newest first, rather than searched among all the event's logins.
 */
export async function findLogin(db: Db, loginIds: number[], eventId: number, testing: boolean): Promise<FrontendLogin> {
  for (const id of [...loginIds].sort((a, b) => b - a)) {
    const login = await loginById(db).get({ id });
    if (login?.eventId === eventId && login.testing === testing) return login;
  }
  throw notFound();
}

/** The caller's baskets, newest first; the event and testing filters are null when not asked (testing as 0/1). */
const ownBaskets = prepared((db) =>
  db
    .select()
    .from(schema.baskets)
    .where(
      and(
        inList(schema.baskets.createdById, "loginIds"),
        sql`(${sql.placeholder("eventId")} is null or ${schema.baskets.eventId} = ${sql.placeholder("eventId")})`,
        sql`(${sql.placeholder("testing")} is null or ${schema.baskets.testing} = ${sql.placeholder("testing")})`,
      ),
    )
    .orderBy(desc(schema.baskets.id))
    .prepare(),
);

export async function listOwnBaskets(db: Db, loginIds: number[], filter: { eventId?: number; testing?: boolean }) {
  return ownBaskets(db).all({
    loginIds: jsonList(loginIds),
    eventId: filter.eventId ?? null,
    testing: filter.testing === undefined ? null : Number(filter.testing),
  });
}
