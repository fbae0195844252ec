// The organiser's waiting list (`/events/:id/waiting-list`, issue 31, docs/decisions/0038): switched on and set
// (accepting, automatic or manual offers, the offer time, partial offers), its entries counted and listed in line,
// an entry offered by hand out of line or removed. Staff who see the event read it; a closed or archived event's list
// is changed by superusers only, as its waiting room is. Stock moves only through offers.ts's statements, each change
// in ONE batch or transaction with the offers it makes due.
import { and, asc, type Database, type Db, eq, run, schema, sql } from "@ticketing/db";
import type { WaitingListEntryState } from "@ticketing/shared/constants";
import { isWaitingRoomLocked } from "@ticketing/shared/event-status";
import type {
  WaitingList,
  WaitingListCounts,
  WaitingListEntriesQuery,
  WaitingListEntry,
  WaitingListSettings,
} from "@ticketing/shared/schemas/waiting-list";
import type { SQL } from "drizzle-orm";
import { conflict, notFound } from "../../lib/errors.ts";
import { countRows } from "../../lib/list-query.ts";
import { type Event, getVisibleEvent, type User } from "../accounts/access.ts";
import { findWaitingList, positionOf } from "./entries.ts";
import { closeEntryStatements, handOfferStatements, offerStatements, runStatements } from "./offers.ts";

const entries = schema.waitingListEntries;

/** The access methods with which a buyer proves an email: one of them is needed to join a list. */
const EMAIL_ACCESS_METHODS = ["trusted_email", "third_party"] as const;

/** What the organiser sees of an entry, `position` aside. */
export const entryFields = {
  id: entries.id,
  eventId: entries.eventId,
  email: entries.email,
  language: entries.language,
  testing: entries.testing,
  nodeId: entries.nodeId,
  title: entries.title,
  quantity: entries.quantity,
  state: entries.state,
  offeredQuantity: entries.offeredQuantity,
  offeredAt: entries.offeredAt,
  offerExpiresAt: entries.offerExpiresAt,
  basketId: entries.basketId,
  createdAt: entries.createdAt,
  updatedAt: entries.updatedAt,
};

/** The entries of one event's list (real or preview's), in a state when asked. */
export const entriesWhere = (eventId: number, testing: boolean, state?: WaitingListEntryState): SQL | undefined =>
  and(eq(entries.eventId, eventId), eq(entries.testing, testing), state ? eq(entries.state, state) : undefined);

/** The event, if the user may change its list: who sees it, on a draft or public event; a superuser on any. */
async function listEventFor(db: Db, user: User, eventId: number, supportEmail: string): Promise<Event> {
  const event = await getVisibleEvent(db, user, eventId);
  if (isWaitingRoomLocked(event.status, user.isSuperuser))
    throw conflict("errors.editing_locked", { support: supportEmail });
  return event;
}

const listOf = (db: Db, eventId: number) =>
  db.select().from(schema.waitingLists).where(eq(schema.waitingLists.eventId, eventId)).get();

/** The list with its entries counted by state (`offering` lasts inside one write: never seen). */
async function presentList(db: Db, eventId: number, testing: boolean): Promise<WaitingList> {
  const list = await findWaitingList(db, eventId);
  const counts: WaitingListCounts = { waiting: 0, offered: 0, bought: 0, expired: 0, left: 0, removed: 0 };
  const rows = await db
    .select({ state: entries.state, n: sql<number>`count(*)` })
    .from(entries)
    .where(entriesWhere(eventId, testing))
    .groupBy(entries.state)
    .all();
  for (const row of rows) if (row.state !== "offering") counts[row.state] = Number(row.n);
  return {
    eventId,
    accepting: list.accepting,
    automatic: list.automatic,
    offerMinutes: list.offerMinutes,
    partialOffers: list.partialOffers,
    counts,
    updatedAt: list.updatedAt,
  };
}

/** `GET /events/:id/waiting-list`: the list and its entries counted (404 when the event has none). */
export async function getWaitingList(db: Db, user: User, eventId: number, testing: boolean): Promise<WaitingList> {
  const event = await getVisibleEvent(db, user, eventId);
  return presentList(db, event.id, testing);
}

/**
 * `PUT /events/:id/waiting-list`: switches the list on, or changes it. Joining needs a proved email, so a list is
 * refused (409) to an event whose buyers cannot sign in by email or through a third party, unless it takes no names
 * (an existing list may always stop accepting). In the same transaction, the offers the new settings make due (an
 * automatic list, partial offers) are made, so entries whose stock is already free are offered at once.
 */
export async function setWaitingList(
  database: Database,
  user: User,
  eventId: number,
  settings: WaitingListSettings,
  now: Date,
  supportEmail: string,
): Promise<WaitingList> {
  const event = await listEventFor(database.db, user, eventId, supportEmail);
  const nowIso = now.toISOString();
  await database.transaction(function* (tx) {
    const methods = yield* run(
      tx
        .select({ method: schema.eventAccessMethods.method })
        .from(schema.eventAccessMethods)
        .where(eq(schema.eventAccessMethods.eventId, event.id))
        .all(),
    );
    const current = yield* run(listOf(tx, event.id));
    const provesEmail = methods.some(({ method }) => (EMAIL_ACCESS_METHODS as readonly string[]).includes(method));
    if (!provesEmail && (!current || settings.accepting)) throw conflict("errors.waiting_list_needs_email_access");
    yield* run(
      tx
        .insert(schema.waitingLists)
        .values({ eventId: event.id, ...settings, updatedAt: nowIso })
        .onConflictDoUpdate({ target: schema.waitingLists.eventId, set: { ...settings, updatedAt: nowIso } })
        .run(),
    );
    yield* runStatements(tx, offerStatements(nowIso));
  });
  return presentList(database.db, event.id, false);
}

/** `GET /events/:id/waiting-list/entries`: a page of the entries, in order of joining (none when there is no list). */
export async function listWaitingListEntries(
  db: Db,
  user: User,
  eventId: number,
  query: WaitingListEntriesQuery,
): Promise<{ data: WaitingListEntry[]; total: number }> {
  const event = await getVisibleEvent(db, user, eventId);
  const where = entriesWhere(event.id, query.testing, query.state);
  const data = await db
    .select({ ...entryFields, position: positionOf })
    .from(entries)
    .where(where)
    .orderBy(asc(entries.id))
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .all();
  return { data: data.map(presentEntry), total: await countRows(db, entries, where) };
}

type EntryRow = Omit<WaitingListEntry, "position"> & { position: number | string | null };
const presentEntry = (row: EntryRow): WaitingListEntry => ({
  ...row,
  position: row.position === null ? null : Number(row.position),
});

/** The entry of this event (404 for another event's, as for one that does not exist). */
async function eventEntry(db: Db, eventId: number, entryId: number): Promise<WaitingListEntry> {
  const row = await db
    .select({ ...entryFields, position: positionOf })
    .from(entries)
    .where(and(eq(entries.id, entryId), eq(entries.eventId, eventId)))
    .get();
  if (!row) throw notFound();
  return presentEntry(row);
}

/** The entry `ids` name, of an event whose list `user` may run (404 for another event's entry). */
async function listEntryFor(
  database: Database,
  user: User,
  ids: { eventId: number; entryId: number },
  supportEmail: string,
): Promise<WaitingListEntry> {
  const event = await listEventFor(database.db, user, ids.eventId, supportEmail);
  return eventEntry(database.db, event.id, ids.entryId);
}

/**
 * `POST /events/:id/waiting-list/entries/:entryId/offer`: offers a waiting entry by hand, out of line, in one batch:
 * 409 when it no longer waits, or when its stock has no room for it (for any of it, with partial offers).
 */
export async function offerEntryByHand(
  database: Database,
  user: User,
  ids: { eventId: number; entryId: number },
  now: Date,
  supportEmail: string,
): Promise<WaitingListEntry> {
  const entry = await listEntryFor(database, user, ids, supportEmail);
  // The batch's last statement answers the entries it moved to `offered`: this one, or none.
  const offered = (await database.batch(handOfferStatements(entry.id, now.toISOString()))).at(-1) ?? [];
  const after = await eventEntry(database.db, ids.eventId, entry.id);
  if (!offered.some((row) => Number(row.id) === entry.id)) {
    if (after.state !== "waiting") throw conflict("errors.waiting_list_entry_closed");
    throw conflict("errors.waiting_list_no_stock", { quantity: after.quantity, title: after.title });
  }
  return after;
}

/**
 * `DELETE /events/:id/waiting-list/entries/:entryId`: takes an entry out of line, in one batch: what it waited for
 * leaves the list's count, or the stock its unopened offer held comes back, and is offered on. 409 when it is neither
 * waiting nor holding an unopened offer.
 */
export async function removeEntry(
  database: Database,
  user: User,
  ids: { eventId: number; entryId: number },
  now: Date,
  supportEmail: string,
): Promise<WaitingListEntry> {
  const entry = await listEntryFor(database, user, ids, supportEmail);
  const [, closed = []] = await database.batch(closeEntryStatements(entry.id, "removed", now.toISOString()));
  if (closed.length === 0) throw conflict("errors.waiting_list_entry_closed");
  return eventEntry(database.db, ids.eventId, entry.id);
}
