// A buyer's place in a waiting room (docs/decisions/0037): taken once per login, device and (a few per) address; its
// position, and what it means now. Places taken before the opening are ordered at the opening by a random draw,
// later ones by arrival.
import { randomInt } from "node:crypto";
import { and, type Database, type Db, eq, isNull, prepared, run, schema, sql } from "@ticketing/db";
import { WAITING_ROOM_REFRESH_SECONDS, type WaitingRoomPlaceState } from "@ticketing/shared/constants";
import type { WaitingRoomPlace } from "@ticketing/shared/schemas/waiting-room";
import { conflict } from "../../lib/errors.ts";
import { admissionTime, admittedPositions, isPausedSchedule, parseSchedule, type Schedule } from "./schedule.ts";

export type Room = typeof schema.waitingRooms.$inferSelect;
export type Place = typeof schema.waitingRoomPlaces.$inferSelect;

/** Places one client address may hold in one room (scaled by RATE_LIMIT_MULTIPLIER): a household, not a farm. */
export const PLACES_PER_ADDRESS = 3;
/** Draws are integers below this (randomInt's most): ties (about one in 2^48 a pair) fall back to arrival order. */
const DRAW_RANGE = 2 ** 48 - 1;

/** A source of draws: uniform integers in [0, DRAW_RANGE). Tests give a seeded one. */
export type DrawSource = () => number;
export const cryptoDraws: DrawSource = () => randomInt(DRAW_RANGE);

export const roomOfEvent = prepared((db) =>
  db
    .select()
    .from(schema.waitingRooms)
    .where(eq(schema.waitingRooms.eventId, sql.placeholder("eventId")))
    .prepare(),
);

export const placeOfLogin = prepared((db) =>
  db
    .select()
    .from(schema.waitingRoomPlaces)
    .where(
      and(
        eq(schema.waitingRoomPlaces.eventId, sql.placeholder("eventId")),
        eq(schema.waitingRoomPlaces.loginId, sql.placeholder("loginId")),
        isNull(schema.waitingRoomPlaces.leftAt),
      ),
    )
    .prepare(),
);

/** An early place's rank among the early places: by draw, then by arrival. */
const earlyRank = prepared((db) =>
  db
    .select({ ahead: sql<number>`count(*)` })
    .from(schema.waitingRoomPlaces)
    .where(
      and(
        eq(schema.waitingRoomPlaces.eventId, sql.placeholder("eventId")),
        eq(schema.waitingRoomPlaces.early, true),
        sql`(${schema.waitingRoomPlaces.draw} < ${sql.placeholder("draw")} or
          (${schema.waitingRoomPlaces.draw} = ${sql.placeholder("draw")} and ${schema.waitingRoomPlaces.id} < ${sql.placeholder("id")}))`,
      ),
    )
    .prepare(),
);

/** The room's schedule, parsed once per room read (the live counts describe every place of one room). */
const schedules = new WeakMap<Room, Schedule>();
function scheduleOf(room: Room): Schedule {
  let schedule = schedules.get(room);
  if (!schedule) {
    schedule = parseSchedule(room.schedule);
    schedules.set(room, schedule);
  }
  return schedule;
}

/** Whether the room still asks for places: it exists and has not ended. */
export const isRoomOn = (room: Room | undefined): room is Room => room !== undefined && room.status !== "ended";

/** The place's position (1-based), or null before the opening. */
export async function positionOf(db: Db, room: Room, place: Place, now: Date): Promise<number | null> {
  if (now.toISOString() < room.opensAt) return null;
  if (!place.early) return place.position;
  const row = await earlyRank(db).get({ eventId: room.eventId, draw: place.draw ?? 0, id: place.id });
  return (row?.ahead ?? 0) + 1;
}

/** positionOf inside a write transaction. */
function* positionIn(tx: Db, room: Room, place: Place, now: Date) {
  if (now.toISOString() < room.opensAt) return null;
  if (!place.early) return place.position;
  const row = yield* run(earlyRank(tx).get({ eventId: room.eventId, draw: place.draw ?? 0, id: place.id }));
  return (row?.ahead ?? 0) + 1;
}

/** What a place means at `now`: its state, position, the places ahead not admitted yet, the wait, the deadline. */
export function describePlace(
  room: Room,
  place: Pick<Place, "heldAt">,
  position: number | null,
  now: Date,
): WaitingRoomPlace {
  const base = { eventId: room.eventId, opensAt: room.opensAt, refreshSeconds: WAITING_ROOM_REFRESH_SECONDS };
  if (position === null)
    return { ...base, state: "before_opening", position, ahead: null, estimatedWaitSeconds: null, admittedUntil: null };
  const schedule = scheduleOf(room);
  const admitted = admittedPositions(schedule, now);
  if (position > admitted) {
    const paused = room.status === "paused" || isPausedSchedule(schedule);
    const at = paused ? null : admissionTime(schedule, position);
    return {
      ...base,
      state: paused ? "paused" : "waiting",
      position,
      ahead: position - 1 - admitted,
      estimatedWaitSeconds: at ? Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000)) : null,
      admittedUntil: null,
    };
  }
  const until = admittedUntil(room, place, schedule, position);
  const state: WaitingRoomPlaceState = until !== null && until < now.toISOString() ? "lapsed" : "admitted";
  return { ...base, state, position, ahead: 0, estimatedWaitSeconds: null, admittedUntil: until };
}

/** Until when an admitted place may start holding a basket; null once it did (the admission then lasts). */
function admittedUntil(room: Room, place: Pick<Place, "heldAt">, schedule: Schedule, position: number) {
  if (place.heldAt !== null) return null;
  const at = admissionTime(schedule, position) ?? new Date(room.opensAt);
  return new Date(at.getTime() + room.admissionMinutes * 60_000).toISOString();
}

/** A buyer with no place needed: the room is off or ended, or the visit is a preview. */
export const openPlace = (eventId: number): WaitingRoomPlace => ({
  eventId,
  state: "open",
  opensAt: null,
  position: null,
  ahead: null,
  estimatedWaitSeconds: null,
  admittedUntil: null,
  refreshSeconds: WAITING_ROOM_REFRESH_SECONDS,
});

/** Where the place comes from: the login taking it, the client's address and device. */
export interface Arrival {
  eventId: number;
  loginId: number;
  address: string;
  device: string | null;
  now: Date;
  placesPerAddress: number;
  draws: DrawSource;
}

/**
 * The login's place, taken now if it has none; a lapsed place is left and a new one taken at the back. Answers the
 * place, its position (positionOf) and whether it is new. One write transaction: two requests of one login, device or address at once cannot
 * both take a place, and a later place's position (after every early one, then by arrival) is decided there.
 */
export async function takePlace(database: Database, room: Room, arrival: Arrival) {
  const { eventId, loginId, address, device, now } = arrival;
  const early = now.toISOString() < room.opensAt;
  const draw = early ? arrival.draws() : null;
  return database.transaction(function* (tx) {
    const table = schema.waitingRoomPlaces;
    const own = yield* run(placeOfLogin(tx).get({ eventId, loginId }));
    if (own) {
      const position = yield* positionIn(tx, room, own, now);
      if (describePlace(room, own, position, now).state !== "lapsed") return { place: own, position, isNew: false };
      yield* run(tx.update(table).set({ leftAt: now.toISOString() }).where(eq(table.id, own.id)).run());
    }
    if (device !== null) {
      const taken = yield* run(
        tx
          .select({ id: table.id })
          .from(table)
          .where(and(eq(table.eventId, eventId), eq(table.device, device), isNull(table.leftAt)))
          .get(),
      );
      if (taken) throw conflict("errors.waiting_room_place_per_device");
    }
    const fromAddress = yield* run(
      tx
        .select({ count: sql<number>`count(*)` })
        .from(table)
        .where(and(eq(table.eventId, eventId), eq(table.address, address), isNull(table.leftAt)))
        .get(),
    );
    if ((fromAddress?.count ?? 0) >= arrival.placesPerAddress) throw conflict("errors.waiting_room_places_per_address");
    const position = early
      ? null
      : // Every place taken before it (early ones, later ones, those left) keeps its position: this one comes next.
        sql`(select count(*) + 1 from ${table} where ${table.eventId} = ${eventId})`;
    const place = yield* run(
      tx
        .insert(table)
        .values({ eventId, loginId, address, device, arrivedAt: now.toISOString(), early, draw, position })
        .returning()
        .get(),
    );
    // A new early place has no position before the opening; a later one has the one it was given.
    return { place, position: place.position, isNew: true };
  });
}
