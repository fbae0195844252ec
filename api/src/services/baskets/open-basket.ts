// Opening a basket: one open basket per login and event (docs/decisions/0036), found or made in one guarded batch.
import { randomBytes } from "node:crypto";
import { type Database, rowOf, schema } from "@ticketing/db";
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
 * look and the insert are one batch (a write transaction in one round trip, docs/decisions/0026), so two calls at
 * once cannot open two, and over a libSQL server the lock is held for SQLite's work alone.
 */
export async function createBasket(database: Database, event: Event, login: FrontendLogin, now: Date): Promise<Basket> {
  assertBasketActionsAllowed(event, login.testing, now);
  const open = `created_by_id = ? and event_id = ? and testing = ? and status in (select value from json_each(?))`;
  const openArgs = [login.id, event.id, Number(login.testing), JSON.stringify(OPEN_BASKET_STATUSES)];
  const [, found] = await database.batch([
    {
      sql: `insert into baskets (event_id, created_by_id, testing, unikey, expires_at)
        select ?, ?, ?, ?, ? where not exists (select 1 from baskets where ${open})`,
      args: [event.id, login.id, Number(login.testing), newUnikey(), holdUntil(event, now), ...openArgs],
    },
    { sql: `select * from baskets where ${open} order by id desc limit 1`, args: openArgs },
  ]);
  const row = found?.[0];
  // The batch opened one when there was none: only a failed write (thrown) leaves it without.
  if (!row) throw new Error(`no open basket after opening one for login ${login.id}`);
  return rowOf(schema.baskets, row);
}
