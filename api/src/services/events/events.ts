// Events: creation with their registration module and root node, status rules, public infos.
import { and, type Database, type Db, eq, inArray, run, schema, sql } from "@ticketing/db";
import type { AccessMethod, EventStatus, OnlinePaymentModule } from "@ticketing/shared/constants";
import {
  EVENT_STATUS_TRANSITIONS,
  MODERATION_TRANSITIONS,
  type ModerationAction,
  mayGoPublic,
} from "@ticketing/shared/event-status";
import type { Communication, Event as EventAnswer, EventChanges, EventCreate } from "@ticketing/shared/schemas/events";
import { ticketOfficeUrl } from "@ticketing/shared/ticket-office";
import type { Config } from "../../env.ts";
import { conflict, forbidden, invalid, notFound } from "../../lib/errors.ts";
import { enqueueWebhook, eventStatusSource } from "../../lib/webhook-outbox.ts";
import { canSeeUnit, type Event, getVisibleEvent, type User } from "../accounts/access.ts";
import { unitsWithStripe } from "../accounts/units.ts";
import { setAccessMethods } from "../buyers/logins.ts";
import { findCancellation } from "./cancellation-views.ts";
import { startEventChange } from "./event-changes.ts";

export const FRONTEND_PATH_PATTERN = /^[-_0-9A-Za-z]+$/;

/**
 * docs/specification.md §5: only - _ 0-9 A-Z; cannot start with preview or test (they are route segments of the ticket
 * office).
 */
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
  /** The French of the texts buyers read, empty until written (docs/decisions/0043). */
  frontendTitleFr?: string;
  welcomeTextFr?: string;
  frontendOrganizersFr?: string;
  locationTextFr?: string;
  registrationsStartDate?: string | null;
  registrationsEndDate?: string | null;
  paymentsStartDate?: string | null;
  paymentsEndDate?: string | null;
  reservationMinutes?: number;
  paymentTermMinutes?: number;
  maxItemsPerBasket?: number;
  /** Caps per buyer and bounded hold renewals (docs/decisions/0036). */
  maxTicketsPerBuyer?: number | null;
  maxHoldRenewals?: number;
  isPointOfSaleEnabled?: boolean;
  onlinePaymentModule?: OnlinePaymentModule;
  accessMethods?: AccessMethod[];
  status?: EventStatus;
}

/**
 * Stripe takes an event's payments only once its unit's account is set (docs/design.md §4 "Payments"): 400 otherwise.
 */
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
        .values({
          eventId: event.id,
          category: "no_configuration",
          title: event.frontendTitle,
          titleFr: event.frontendTitleFr,
        })
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
  // docs/design.md §4: a non-draft event is locked, but its status still moves (public → closed, …). A change sends an
  // approved event back to moderation (ADR 0031): its status alone does not.
  const change = changesOtherThanStatus ? startEventChange(event, user, supportEmail) : null;
  if (fields.frontendPath !== undefined) await assertPathFree(database.db, fields.frontendPath, event.id);
  // Checked when chosen: an event already on Stripe whose unit's account was removed still saves its other fields.
  if (fields.onlinePaymentModule && fields.onlinePaymentModule !== event.onlinePaymentModule)
    await assertModuleUsable(database.db, event.unitId, fields.onlinePaymentModule);
  if (fields.status && fields.status !== event.status) {
    // A cancelled event stays closed for good (docs/decisions/0047), whoever asks; it may still be archived.
    if (fields.status !== "archived" && (await findCancellation(database.db, event.id)))
      throw conflict("errors.event_cancelled");
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
    // The status as it is now, in the write's transaction: the unit's webhooks hear of a change once (ADR 0045).
    const before =
      fields.status && fields.status !== event.status
        ? yield* run(
            tx.select({ status: schema.events.status }).from(schema.events).where(eq(schema.events.id, event.id)).get(),
          )
        : undefined;
    const updated = Object.keys(changes).length
      ? yield* run(tx.update(schema.events).set(changes).where(eq(schema.events.id, event.id)).returning().get())
      : event;
    if (!updated) throw notFound("errors.event_not_found");
    if (before && before.status !== updated.status)
      yield* enqueueWebhook(tx, "event.status_changed", eventStatusSource(event.id, before.status), new Date());
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

export interface EventExtras {
  registrationModuleId: number;
  rootNodeId: number | null;
  accessMethods: AccessMethod[];
  thirdPartySecretKey: string | null;
}

/** Each event's registration module and access methods, by event id. */
export function extrasByEvent(
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

/** docs/design.md §4 "Event status and locks": organisers ask, moderators approve or request changes. */
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
