// Events: creation with their registration module and root node, status rules, public infos.
import {
  and,
  asc,
  type Database,
  type Db,
  eq,
  gte,
  inArray,
  isNull,
  like,
  lt,
  lte,
  or,
  prepared,
  run,
  schema,
  sql,
} from "@ticketing/db";
import type { AccessMethod, EventActivity, EventStatus, OnlinePaymentModule } from "@ticketing/shared/constants";
import {
  EVENT_STATUS_TRANSITIONS,
  MODERATION_TRANSITIONS,
  type ModerationAction,
  mayGoPublic,
} from "@ticketing/shared/event-status";
import type {
  Communication,
  Event as EventAnswer,
  EventChanges,
  EventCreate,
  PublicInfos,
  PublicInfosQuery,
} from "@ticketing/shared/schemas/events";
import { EventListFilter } from "@ticketing/shared/schemas/events";
import { eventWindows, ticketOfficeUrl } from "@ticketing/shared/ticket-office";
import type { SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Config } from "../../env.ts";
import { conflict, forbidden, invalid, notFound } from "../../lib/errors.ts";
import { parseWith } from "../../lib/http.ts";
import { idFilter, type ListOptions, type ListQuery, listPage } from "../../lib/list-query.ts";
import {
  type Authenticated,
  canSeeUnit,
  type Event,
  getVisibleEvent,
  inVisibleUnits,
  requireUser,
  type User,
} from "../accounts/access.ts";
import { unitsWithStripe } from "../accounts/units.ts";
import { setAccessMethods } from "../buyers/logins.ts";
import { startEventChange } from "./event-changes.ts";

export const FRONTEND_PATH_PATTERN = /^[-_0-9A-Za-z]+$/;

/** SPEC 5: only - _ 0-9 A-Z; cannot start with preview or test (they are route segments of the ticket office). */
export function frontendPathError(path: string): string | null {
  if (!FRONTEND_PATH_PATTERN.test(path)) return "errors.path_invalid";
  if (/^(preview|test)/i.test(path)) return "errors.path_reserved";
  return null;
}

export interface EventInput {
  unitId: number;
  name: string;
  frontendTitle: string;
  frontendPath: string;
  startDate: string;
  endDate: string;
  welcomeText?: string;
  locationText?: string;
  registrationsStartDate?: string | null;
  registrationsEndDate?: string | null;
  paymentsStartDate?: string | null;
  paymentsEndDate?: string | null;
  reservationMinutes?: number;
  paymentTermMinutes?: number;
  maxItemsPerBasket?: number;
  isPointOfSaleEnabled?: boolean;
  onlinePaymentModule?: OnlinePaymentModule;
  accessMethods?: AccessMethod[];
  status?: EventStatus;
}

/** Stripe takes an event's payments only once its unit's account is set (DESIGN.md 4 "Payments"): 400 otherwise. */
async function assertModuleUsable(db: Db, unitId: number, module: OnlinePaymentModule) {
  if (module === "stripe" && !(await unitsWithStripe(db, [unitId])).has(unitId))
    throw invalid("errors.stripe_not_configured", { online_payment_module: "errors.stripe_not_configured" });
}

function checkEventFields(fields: Partial<EventInput>, current?: Event) {
  if (fields.frontendPath !== undefined) {
    const error = frontendPathError(fields.frontendPath);
    if (error) throw invalid(error, { frontend_path: error });
  }
  const start = fields.startDate ?? current?.startDate;
  const end = fields.endDate ?? current?.endDate;
  if (start && end && end < start) throw invalid("errors.dates_order", { end_date: "errors.dates_order" });
}

async function assertPathFree(db: Db, path: string, exceptId?: number) {
  const other = await db
    .select({ id: schema.events.id })
    .from(schema.events)
    .where(sql`lower(${schema.events.frontendPath}) = lower(${path})`)
    .get();
  if (other && other.id !== exceptId) throw invalid("errors.path_taken", { frontend_path: "errors.path_taken" });
}

/** Creates the event with its registration module, root node and default settings, atomically. */
export async function createEvent(database: Database, input: EventInput): Promise<Event> {
  checkEventFields(input);
  await assertPathFree(database.db, input.frontendPath);
  if (input.onlinePaymentModule) await assertModuleUsable(database.db, input.unitId, input.onlinePaymentModule);
  const { status: _ignored, accessMethods = ["anonymous"], ...fields } = input;
  return database.transaction(function* (tx) {
    const event = yield* run(tx.insert(schema.events).values(fields).returning().get());
    const configuration = yield* run(
      tx
        .insert(schema.nodeConfigurations)
        .values({ eventId: event.id, category: "no_configuration", title: event.frontendTitle })
        .returning()
        .get(),
    );
    const cart = yield* run(tx.insert(schema.nodeCartConfigurations).values({ eventId: event.id }).returning().get());
    const root = yield* run(
      tx
        .insert(schema.nodes)
        .values({ eventId: event.id, configurationId: configuration.id, cartConfigurationId: cart.id })
        .returning()
        .get(),
    );
    yield* run(tx.insert(schema.registrationModules).values({ eventId: event.id, rootNodeId: root.id }).run());
    yield* setAccessMethods(tx, event.id, accessMethods);
    yield* run(tx.insert(schema.communicationSettings).values({ eventId: event.id }).run());
    return event;
  });
}

export async function updateEvent(
  database: Database,
  event: Event,
  user: User,
  fields: Partial<EventInput>,
  supportEmail: string,
): Promise<Event> {
  checkEventFields(fields, event);
  const { accessMethods, ...columns } = fields;
  const currentMethods = (await eventExtras(database.db, [event.id])).get(event.id)?.accessMethods ?? [];
  const methodsChanged =
    accessMethods !== undefined &&
    (accessMethods.length !== currentMethods.length || accessMethods.some((m) => !currentMethods.includes(m)));
  const changesOtherThanStatus =
    methodsChanged ||
    Object.entries(columns).some(
      ([key, value]) => key !== "status" && value !== undefined && value !== event[key as keyof Event],
    );
  // DESIGN.md 4: a non-draft event is locked, but its status still moves (public → closed, …). A change sends an
  // approved event back to moderation (ADR 0031): its status alone does not.
  const change = changesOtherThanStatus ? startEventChange(event, user, supportEmail) : null;
  if (fields.frontendPath !== undefined) await assertPathFree(database.db, fields.frontendPath, event.id);
  // Checked when chosen: an event already on Stripe whose unit's account was removed still saves its other fields.
  if (fields.onlinePaymentModule && fields.onlinePaymentModule !== event.onlinePaymentModule)
    await assertModuleUsable(database.db, event.unitId, fields.onlinePaymentModule);
  if (fields.status && fields.status !== event.status) {
    if (!user.isSuperuser && !EVENT_STATUS_TRANSITIONS[event.status].includes(fields.status))
      throw conflict("errors.status_transition", { from: event.status, to: fields.status });
    // Changed and made public at once: public only if the change keeps the approval.
    if (fields.status === "public" && !mayGoPublic(change?.moderationAfter ?? event.moderationStatus))
      throw conflict("errors.public_needs_moderation");
  }
  const { unitId: _unit, ...changes } = columns; // an event does not move between units
  return database.transaction(function* (tx) {
    if (change) yield* change.record(tx);
    if (methodsChanged && accessMethods) yield* setAccessMethods(tx, event.id, accessMethods);
    const updated = Object.keys(changes).length
      ? yield* run(tx.update(schema.events).set(changes).where(eq(schema.events.id, event.id)).returning().get())
      : event;
    if (!updated) throw notFound("errors.event_not_found");
    return updated;
  });
}

export async function deleteEvent(database: Database, event: Event) {
  if (event.status !== "draft") throw conflict("errors.status_transition", { from: event.status, to: "deleted" });
  await database.transaction(function* (tx) {
    // The registration module points at the root node and nodes at their parent: cascade from the event.
    yield* run(
      tx
        .update(schema.registrationModules)
        .set({ rootNodeId: null })
        .where(eq(schema.registrationModules.eventId, event.id))
        .run(),
    );
    yield* run(tx.delete(schema.events).where(eq(schema.events.id, event.id)).run());
  });
}

interface EventExtras {
  registrationModuleId: number;
  rootNodeId: number | null;
  accessMethods: AccessMethod[];
  thirdPartySecretKey: string | null;
}

/** Each event's registration module and access methods, by event id. */
function extrasByEvent(
  modules: (typeof schema.registrationModules.$inferSelect)[],
  methods: (typeof schema.eventAccessMethods.$inferSelect)[],
): Map<number, EventExtras> {
  return new Map(
    modules.map((m) => [
      m.eventId,
      {
        registrationModuleId: m.id,
        rootNodeId: m.rootNodeId,
        accessMethods: methods.filter((a) => a.eventId === m.eventId).map((a) => a.method),
        thirdPartySecretKey:
          methods.find((a) => a.eventId === m.eventId && a.method === "third_party")?.secretKey ?? null,
      },
    ]),
  );
}

export async function eventExtras(db: Db, eventIds: number[]) {
  if (eventIds.length === 0) return new Map<number, EventExtras>();
  const modules = await db
    .select()
    .from(schema.registrationModules)
    .where(inArray(schema.registrationModules.eventId, eventIds))
    .all();
  const methods = await db
    .select()
    .from(schema.eventAccessMethods)
    .where(inArray(schema.eventAccessMethods.eventId, eventIds))
    .all();
  return extrasByEvent(modules, methods);
}

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

/** One event's extras (eventExtras for a single event, with prepared queries). */
async function extrasOfEvent(db: Db, eventId: number): Promise<EventExtras | undefined> {
  const modules = await modulesOfEvent(db).all({ eventId });
  const methods = await accessMethodsOfEvent(db).all({ eventId });
  return extrasByEvent(modules, methods).get(eventId);
}

/** The back-office shape of an event. */
export async function presentEvents(db: Db, events: Event[], publicUrl: string): Promise<EventAnswer[]> {
  const extras = await eventExtras(
    db,
    events.map((e) => e.id),
  );
  const withStripe = await unitsWithStripe(
    db,
    events.map((e) => e.unitId),
  );
  return events.map((event) => {
    const extra = extras.get(event.id);
    return {
      ...event,
      isStripeConfigured: withStripe.has(event.unitId),
      registrationModuleId: extra?.registrationModuleId ?? null,
      rootNodeId: extra?.rootNodeId ?? null,
      accessMethods: extra?.accessMethods ?? [],
      thirdPartySecretKey: extra?.thirdPartySecretKey ?? null,
      ticketOfficeUrl: ticketOfficeUrl(publicUrl, event, false),
      ticketOfficeTestingUrl: ticketOfficeUrl(publicUrl, event, true),
    };
  });
}

const presentEvent = async (db: Db, event: Event, publicUrl: string) =>
  (await presentEvents(db, [event], publicUrl))[0] as EventAnswer;

/** The columns the events list (and its export) can be ordered by. */
export const EVENT_COLUMNS = {
  id: schema.events.id,
  name: schema.events.name,
  frontendTitle: schema.events.frontendTitle,
  frontendPath: schema.events.frontendPath,
  status: schema.events.status,
  startDate: schema.events.startDate,
  endDate: schema.events.endDate,
} as const;
export const EVENT_SORT_FIELDS = Object.keys(EVENT_COLUMNS);
/** The back office's event list: sortable fields, and the id filters (`id`, `unit_id`). */
export const EVENT_LIST: ListOptions = { sortable: EVENT_SORT_FIELDS, idFilters: ["id", "unitId"] };

/** Now within a window whose empty bounds are open (ISO 8601 UTC strings compare as instants). */
const withinWindow = (start: SQLiteColumn, end: SQLiteColumn, now: string) =>
  and(or(isNull(start), lte(start, now)), or(isNull(end), gte(end, now)));

/** The condition of an `activity` filter (EVENT_ACTIVITIES says what each means) at `now`. */
function activityCondition(activity: EventActivity, now: Date): SQL | undefined {
  const at = now.toISOString();
  const { events } = schema;
  switch (activity) {
    case "active":
      return and(inArray(events.status, ["draft", "public"]), gte(events.endDate, at));
    case "inactive":
      return or(inArray(events.status, ["closed", "archived"]), lt(events.endDate, at));
    case "registrations":
      return and(
        eq(events.status, "public"),
        withinWindow(events.registrationsStartDate, events.registrationsEndDate, at),
      );
    case "payments":
      return and(eq(events.status, "public"), withinWindow(events.paymentsStartDate, events.paymentsEndDate, at));
  }
}

/**
 * Which events the list (or its export) shows at `now`: those of the user's units, filtered by unit, id, name,
 * status, moderation status and activity; a filter value outside EventListFilter is a 400.
 */
export async function eventsWhere(db: Db, user: User, query: ListQuery, now: Date): Promise<SQL | undefined> {
  const f = parseWith(EventListFilter, query.filter);
  const q = f.q?.trim();
  return and(
    await inVisibleUnits(db, user, schema.events.unitId),
    idFilter(query, "unitId", schema.events.unitId),
    f.status ? eq(schema.events.status, f.status) : undefined,
    f.moderationStatus ? eq(schema.events.moderationStatus, f.moderationStatus) : undefined,
    f.activity ? activityCondition(f.activity, now) : undefined,
    idFilter(query, "id", schema.events.id),
    q ? like(schema.events.name, `%${q}%`) : undefined,
  );
}

export async function listEvents(db: Db, user: User, query: ListQuery, now: Date) {
  return listPage(db, schema.events, await eventsWhere(db, user, query, now), query, EVENT_COLUMNS);
}

export function presentPublicInfos(
  event: Event,
  extras: { registrationModuleId: number; accessMethods: AccessMethod[] } | undefined,
  now: Date,
): PublicInfos {
  return {
    id: event.id,
    registrationModuleId: extras?.registrationModuleId ?? null,
    frontendTitle: event.frontendTitle,
    frontendPath: event.frontendPath,
    welcomeText: event.welcomeText,
    locationText: event.locationText,
    startDate: event.startDate,
    endDate: event.endDate,
    status: event.status,
    accessMethods: extras?.accessMethods ?? [],
    reservationMinutes: event.reservationMinutes,
    paymentTermMinutes: event.paymentTermMinutes,
    maxItemsPerBasket: event.maxItemsPerBasket,
    isPointOfSaleEnabled: event.isPointOfSaleEnabled,
    ...eventWindows(event, now),
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

/** DESIGN.md 4 "Event status and locks": organisers ask, moderators approve or request changes. */
export async function moderate(
  database: Database,
  event: Event,
  action: ModerationAction,
  description: string | null,
): Promise<Event> {
  const { from, to } = MODERATION_TRANSITIONS[action];
  return database.transaction(function* (tx) {
    const updated = yield* run(
      tx
        .update(schema.events)
        .set({ moderationStatus: to, moderationDescription: action === "requestChanges" ? description : null })
        .where(and(eq(schema.events.id, event.id), inArray(schema.events.moderationStatus, [...from])))
        .returning()
        .get(),
    );
    if (!updated) throw conflict("errors.moderation_transition", { from: event.moderationStatus, to });
    return updated;
  });
}

export async function communicationOf(db: Db, eventId: number): Promise<Communication> {
  const row = await db
    .select()
    .from(schema.communicationSettings)
    .where(eq(schema.communicationSettings.eventId, eventId))
    .get();
  if (!row) throw notFound();
  return row;
}

// --- The event calls, as the API receives them ----------------------------------------------------------------

/** The back office's list of the events of the caller's units (every event for a superuser), filtered as of `now`. */
export async function listVisibleEvents(db: Db, user: User, query: ListQuery, publicUrl: string, now: Date) {
  const { rows, total } = await listEvents(db, user, query, now);
  return { rows: await presentEvents(db, rows, publicUrl), total };
}

/** An event the caller may see; 404 otherwise. */
export async function getEvent(db: Db, user: User, eventId: number, publicUrl: string): Promise<EventAnswer> {
  return presentEvent(db, await getVisibleEvent(db, user, eventId), publicUrl);
}

/** A new event in one of the caller's units (404 for a unit they do not see, as for one that does not exist). */
export async function createEventInUnit(
  database: Database,
  user: User,
  body: EventCreate,
  publicUrl: string,
): Promise<EventAnswer> {
  if (!(await canSeeUnit(database.db, user, body.unitId))) throw notFound();
  return presentEvent(database.db, await createEvent(database, body), publicUrl);
}

/** Changes an event the caller may see: locked once not a draft, but for its status (updateEvent). */
export async function editEvent(
  database: Database,
  user: User,
  eventId: number,
  changes: EventChanges,
  config: Pick<Config, "publicUrl" | "supportEmail">,
): Promise<EventAnswer> {
  const event = await getVisibleEvent(database.db, user, eventId);
  const updated = await updateEvent(database, event, user, changes, config.supportEmail);
  return presentEvent(database.db, updated, config.publicUrl);
}

/** Deletes a draft event the caller may see; answers it as it was. */
export async function removeEvent(database: Database, user: User, eventId: number, publicUrl: string) {
  const event = await getVisibleEvent(database.db, user, eventId);
  const presented = await presentEvent(database.db, event, publicUrl);
  await deleteEvent(database, event);
  return presented;
}

/** A moderation step on an event the caller may see: organisers ask, superusers approve or request changes. */
export async function moderateEvent(
  database: Database,
  user: User,
  eventId: number,
  action: ModerationAction,
  description: string | null,
  publicUrl: string,
): Promise<EventAnswer> {
  const event = await getVisibleEvent(database.db, user, eventId);
  if (action !== "request" && !user.isSuperuser) throw forbidden("errors.superuser_only");
  return presentEvent(database.db, await moderate(database, event, action, description), publicUrl);
}

/**
 * The ticket office's entry point (SPEC 2.3 "Ticket-office guard"), no token needed: every public event, or the
 * one at `path` if public or closed — or, for a preview (`testing`), for staff of its unit whatever its status.
 */
export async function findPublicInfos(
  db: Db,
  auth: Authenticated | null,
  query: PublicInfosQuery,
  now: Date,
): Promise<PublicInfos | PublicInfos[]> {
  if (query.path === undefined) {
    const events = await listPublicEvents(db);
    const extras = await eventExtras(
      db,
      events.map((e) => e.id),
    );
    return events.map((e) => presentPublicInfos(e, extras.get(e.id), now));
  }
  const event = await findEventByPath(db, query.path);
  if (!event) throw notFound("errors.event_not_found");
  if (query.testing) {
    const user = await requireUser(db, auth);
    if (!(await canSeeUnit(db, user, event.unitId))) throw notFound("errors.event_not_found");
  } else if (event.status !== "public" && event.status !== "closed") throw notFound("errors.event_not_found");
  return presentPublicInfos(event, await extrasOfEvent(db, event.id), now);
}
