// Opening a basket: one open basket per login and event (docs/decisions/0036), found or made in one write
// transaction.
import { randomBytes } from "node:crypto";
import { and, type Database, desc, eq, inArray, run, schema } from "@ticketing/db";
import { OPEN_BASKET_STATUSES } from "@ticketing/shared/constants";
import type { Event } from "../accounts/access.ts";
import { assertBasketActionsAllowed, holdUntil } from "./holds.ts";
import type { Basket, FrontendLogin } from "./rows.ts";

const UNIKEY_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A new basket's short public reference: ten letters and digits that cannot be mistaken for one another. */
export const newUnikey = () => Array.from(randomBytes(10), (b) => UNIKEY_ALPHABET[b % UNIKEY_ALPHABET.length]).join("");

/**
 * The login's basket on the event (`POST /frontend/baskets`, and an add naming the event when the caller has no open
 * basket on it): its newest open one (`OPEN_BASKET_STATUSES`), else a new one, holding for the event's reservation
 * time, with a short public reference (`unikey`). One open basket per login and event (docs/decisions/0036): the
 * look and the insert are one write transaction, so two calls at once cannot open two.
 */
export async function createBasket(database: Database, event: Event, login: FrontendLogin, now: Date): Promise<Basket> {
  assertBasketActionsAllowed(event, login.testing, now);
  return database.transaction(function* (tx) {
    const open = yield* run(
      tx
        .select()
        .from(schema.baskets)
        .where(
          and(
            eq(schema.baskets.createdById, login.id),
            eq(schema.baskets.eventId, event.id),
            eq(schema.baskets.testing, login.testing),
            inArray(schema.baskets.status, [...OPEN_BASKET_STATUSES]),
          ),
        )
        .orderBy(desc(schema.baskets.id))
        .limit(1)
        .get(),
    );
    if (open) return open;
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
