// A buyer's baskets: the basket row and the login that owns it, found only among the caller's own; opening one.
// What a basket holds is basket-content.ts; holds and their release, holds.ts; the add, add-to-basket.ts (README.md).
import { randomBytes } from "node:crypto";
import { and, type Database, type Db, desc, eq, prepared, run, schema, sql } from "@ticketing/db";
import { notFound } from "../../lib/errors.ts";
import { inList, jsonList } from "../../lib/id-lists.ts";
import type { Event } from "../accounts/access.ts";
import { assertBasketActionsAllowed, holdUntil } from "./holds.ts";

export { addSelectedNode } from "./add-to-basket.ts";
// Named here too for the services outside this folder that import them from this file.
export { basketItems, basketTotal } from "./basket-content.ts";
export {
  heldArticlesOf,
  movesPerLimit,
  releaseExpiredHolds,
  releaseSelectedNodes,
  removeSelectedNode,
  takeStock,
} from "./holds.ts";

export type Basket = typeof schema.baskets.$inferSelect;
export type FrontendLogin = typeof schema.frontendLogins.$inferSelect;

const UNIKEY_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const newUnikey = () => Array.from(randomBytes(10), (b) => UNIKEY_ALPHABET[b % UNIKEY_ALPHABET.length]).join("");

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

export async function createBasket(database: Database, event: Event, login: FrontendLogin, now: Date): Promise<Basket> {
  assertBasketActionsAllowed(event, login.testing, now);
  return database.transaction(function* (tx) {
    return yield* run(
      tx
        .insert(schema.baskets)
        .values({
          eventId: event.id,
          createdById: login.id,
          testing: login.testing,
          unikey: newUnikey(),
          expiresAt: holdUntil(event, now),
        })
        .returning()
        .get(),
    );
  });
}
