// Events: creation with their registration module and root node, status rules, public infos.
import { and, asc, count, type Database, type Db, eq, inArray, like, run, schema, sql } from "@ticketing/db";
import type { AccessMethod, EventStatus, ModerationStatus } from "@ticketing/shared/constants";
import { eventWindows, ticketOfficeUrl } from "@ticketing/shared/ticket-office";
import { conflict, invalid, notFound } from "../lib/errors.ts";
import { idFilter, type ListQuery, listOrder } from "../lib/list-query.ts";
import type { Event, User } from "./access.ts";
import { assertEditable, visibleUnitIds } from "./access.ts";
import { setAccessMethods } from "./frontend-logins.ts";

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
  accessMethods?: AccessMethod[];
  status?: EventStatus;
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

const TRANSITIONS: Record<EventStatus, EventStatus[]> = {
  draft: ["public"],
  public: ["closed", "draft"],
  closed: ["public", "archived"],
  archived: [],
};

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
  // DESIGN.md 4: a non-draft event is locked, but its status still moves (public → closed, …).
  if (changesOtherThanStatus) assertEditable(event, user, supportEmail);
  if (fields.frontendPath !== undefined) await assertPathFree(database.db, fields.frontendPath, event.id);
  if (fields.status && fields.status !== event.status) {
    if (!user.isSuperuser && !TRANSITIONS[event.status].includes(fields.status))
      throw conflict("errors.status_transition", { from: event.status, to: fields.status });
    if (fields.status === "public" && event.moderationStatus !== "validated")
      throw conflict("errors.public_needs_moderation");
  }
  const { unitId: _unit, ...changes } = columns; // an event does not move between units
  return database.transaction(function* (tx) {
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

export async function eventExtras(db: Db, eventIds: number[]) {
  if (eventIds.length === 0)
    return new Map<
      number,
      {
        registrationModuleId: number;
        rootNodeId: number | null;
        accessMethods: AccessMethod[];
        thirdPartySecretKey: string | null;
      }
    >();
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

/** The back-office shape of an event. */
export async function presentEvents(db: Db, events: Event[], publicUrl: string) {
  const extras = await eventExtras(
    db,
    events.map((e) => e.id),
  );
  return events.map((event) => ({
    ...event,
    ...extras.get(event.id),
    ticketOfficeUrl: ticketOfficeUrl(publicUrl, event, false),
    ticketOfficeTestingUrl: ticketOfficeUrl(publicUrl, event, true),
  }));
}

const SORTABLE = {
  id: schema.events.id,
  name: schema.events.name,
  frontendTitle: schema.events.frontendTitle,
  frontendPath: schema.events.frontendPath,
  status: schema.events.status,
  startDate: schema.events.startDate,
  endDate: schema.events.endDate,
} as const;
export const EVENT_SORT_FIELDS = Object.keys(SORTABLE);

export async function listEvents(db: Db, user: User, query: ListQuery) {
  const units = await visibleUnitIds(db, user);
  const f = query.filter;
  const conditions = [
    units === null ? undefined : inArray(schema.events.unitId, units),
    idFilter(query, "unitId", schema.events.unitId),
    typeof f.status === "string" ? eq(schema.events.status, f.status as EventStatus) : undefined,
    idFilter(query, "id", schema.events.id),
    typeof f.q === "string" && f.q.trim() ? like(schema.events.name, `%${f.q.trim()}%`) : undefined,
  ];
  const where = and(...conditions);
  const rows = await db
    .select()
    .from(schema.events)
    .where(where)
    .orderBy(listOrder(query, SORTABLE))
    .limit(query.limit)
    .offset(query.offset)
    .all();
  const total = (await db.select({ n: count() }).from(schema.events).where(where).get())?.n ?? 0;
  return { rows, total };
}

export function presentPublicInfos(
  event: Event,
  extras: { registrationModuleId: number; accessMethods: AccessMethod[] } | undefined,
  now: Date,
) {
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
  return db.select().from(schema.events).where(sql`lower(${schema.events.frontendPath}) = lower(${path})`).get();
}

export async function listPublicEvents(db: Db) {
  return db
    .select()
    .from(schema.events)
    .where(eq(schema.events.status, "public"))
    .orderBy(asc(schema.events.startDate))
    .all();
}

const MODERATION_TRANSITIONS = {
  request: { from: ["not_requested", "change_requested"], to: "requested" },
  approve: { from: ["requested"], to: "validated" },
  requestChanges: { from: ["requested", "validated"], to: "change_requested" },
} as const satisfies Record<string, { from: readonly ModerationStatus[]; to: ModerationStatus }>;

/** DESIGN.md 4 "Event status and locks": organisers ask, moderators approve or request changes. */
export async function moderate(
  database: Database,
  event: Event,
  action: keyof typeof MODERATION_TRANSITIONS,
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

export async function communicationOf(db: Db, eventId: number) {
  const row = await db
    .select()
    .from(schema.communicationSettings)
    .where(eq(schema.communicationSettings.eventId, eventId))
    .get();
  if (!row) throw notFound();
  return row;
}
