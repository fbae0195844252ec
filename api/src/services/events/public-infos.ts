// The ticket office's entry point: an event's public infos by its path, with its registration module and access
// methods.
import { asc, type Db, eq, ne, prepared, schema, sql } from "@ticketing/db";
import type { AccessMethod, Language } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import type { PublicInfos, PublicInfosQuery } from "@ticketing/shared/schemas/events";
import { eventWindows } from "@ticketing/shared/ticket-office";
import { notFound } from "../../lib/errors.ts";
import { type Authenticated, canSeeUnit, type Event, requireUser } from "../accounts/access.ts";
import { isRoomOn, roomOfEvent } from "../waiting-room/places.ts";
import { publicCancellationOf } from "./cancellation-views.ts";
import { type EventExtras, eventExtras, extrasByEvent } from "./events.ts";

// Every ticket-office page asks for its event's public infos: their queries are built once (prepared.ts).
const eventByPath = prepared((db) =>
  db
    .select()
    .from(schema.events)
    .where(sql`lower(${schema.events.frontendPath}) = lower(${sql.placeholder("path")})`)
    .prepare(),
);
const modulesOfEvent = prepared((db) =>
  db
    .select()
    .from(schema.registrationModules)
    .where(eq(schema.registrationModules.eventId, sql.placeholder("eventId")))
    .prepare(),
);
const accessMethodsOfEvent = prepared((db) =>
  db
    .select()
    .from(schema.eventAccessMethods)
    .where(eq(schema.eventAccessMethods.eventId, sql.placeholder("eventId")))
    .prepare(),
);

/** The event's waiting list's one public fact (docs/decisions/0038): a read by primary key. */
const waitingListOfEvent = prepared((db) =>
  db
    .select({ accepting: schema.waitingLists.accepting })
    .from(schema.waitingLists)
    .where(eq(schema.waitingLists.eventId, sql.placeholder("eventId")))
    .prepare(),
);

/** Whether buyers may join each event's waiting list now, by event; an event without a list is not in it. */
type WaitingLists = ReadonlyMap<number, { accepting: boolean }>;

/** One event's extras (eventExtras for a single event, with prepared queries). */
async function extrasOfEvent(db: Db, eventId: number): Promise<EventExtras | undefined> {
  const modules = await modulesOfEvent(db).all({ eventId });
  const methods = await accessMethodsOfEvent(db).all({ eventId });
  return extrasByEvent(modules, methods).get(eventId);
}

/** The event as the ticket office shows it, its organiser's texts in the buyer's `language` (docs/decisions/0043). */
export function presentPublicInfos(
  event: Event,
  extras: { registrationModuleId: number; accessMethods: AccessMethod[] } | undefined,
  now: Date,
  roomsOn: ReadonlySet<number> = new Set(),
  waitingLists: WaitingLists = new Map(),
  language: Language = "en",
  cancellation: PublicInfos["cancellation"] = null,
): PublicInfos {
  return {
    id: event.id,
    registrationModuleId: extras?.registrationModuleId ?? null,
    frontendTitle: inLanguage(event.frontendTitle, event.frontendTitleFr, language),
    frontendPath: event.frontendPath,
    welcomeText: inLanguage(event.welcomeText, event.welcomeTextFr, language),
    locationText: inLanguage(event.locationText, event.locationTextFr, language),
    startDate: event.startDate,
    endDate: event.endDate,
    status: event.status,
    accessMethods: extras?.accessMethods ?? [],
    reservationMinutes: event.reservationMinutes,
    paymentTermMinutes: event.paymentTermMinutes,
    maxItemsPerBasket: event.maxItemsPerBasket,
    maxTicketsPerBuyer: event.maxTicketsPerBuyer,
    maxHoldRenewals: event.maxHoldRenewals,
    isPointOfSaleEnabled: event.isPointOfSaleEnabled,
    hasWaitingRoom: roomsOn.has(event.id),
    waitingList: waitingLists.get(event.id) ?? null,
    ...eventWindows(event, now),
    cancellation,
  };
}

export async function findEventByPath(db: Db, path: string): Promise<Event | undefined> {
  return eventByPath(db).get({ path });
}

export async function listPublicEvents(db: Db) {
  return db
    .select()
    .from(schema.events)
    .where(eq(schema.events.status, "public"))
    .orderBy(asc(schema.events.startDate))
    .all();
}

/**
 * The ticket office's entry point (docs/specification.md §2.3 "Ticket-office guard"), no token needed: every public
 * event, or the one at `path` if public or closed — or, for a preview (`testing`), for staff of its unit whatever its
 * status.
 */
export async function findPublicInfos(
  db: Db,
  auth: Authenticated | null,
  query: PublicInfosQuery,
  now: Date,
  language: Language = "en",
): Promise<PublicInfos | PublicInfos[]> {
  if (query.path === undefined) {
    const events = await listPublicEvents(db);
    const extras = await eventExtras(
      db,
      events.map((e) => e.id),
    );
    const rooms = await roomsOnOf(db);
    const lists = await waitingListsOf(db);
    return events.map((e) => presentPublicInfos(e, extras.get(e.id), now, rooms, lists, language));
  }
  const event = await findEventByPath(db, query.path);
  if (!event) throw notFound("errors.event_not_found");
  if (query.testing) {
    const user = await requireUser(db, auth);
    if (!(await canSeeUnit(db, user, event.unitId))) throw notFound("errors.event_not_found");
  } else if (event.status !== "public" && event.status !== "closed") throw notFound("errors.event_not_found");
  const room = await roomOfEvent(db).get({ eventId: event.id });
  const list = await waitingListOfEvent(db).get({ eventId: event.id });
  return presentPublicInfos(
    event,
    await extrasOfEvent(db, event.id),
    now,
    new Set(isRoomOn(room) ? [event.id] : []),
    new Map(list ? [[event.id, { accepting: list.accepting }]] : []),
    language,
    await publicCancellationOf(db, event.id, language),
  );
}

/** The events whose waiting room is on (not ended): the ticket office sends their buyers to it. */
async function roomsOnOf(db: Db): Promise<Set<number>> {
  const rows = await db
    .select({ eventId: schema.waitingRooms.eventId })
    .from(schema.waitingRooms)
    .where(ne(schema.waitingRooms.status, "ended"))
    .all();
  return new Set(rows.map((row) => row.eventId));
}

/** Every event's waiting list, as the list of public events shows it. */
async function waitingListsOf(db: Db): Promise<WaitingLists> {
  const rows = await db
    .select({ eventId: schema.waitingLists.eventId, accepting: schema.waitingLists.accepting })
    .from(schema.waitingLists)
    .all();
  return new Map(rows.map((row) => [row.eventId, { accepting: row.accepting }]));
}
