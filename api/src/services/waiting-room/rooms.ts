// The organiser's waiting room (`/events/:id/waiting-room`, docs/decisions/0037): switched on with an opening time,
// a rate and an admission time; opened now, paused, resumed or ended; and seen live.
import { type Database, type Db, eq, run, schema, sql } from "@ticketing/db";
import { OPEN_BASKET_STATUSES, SOLD_BASKET_STATUSES } from "@ticketing/shared/constants";
import { isWaitingRoomLocked } from "@ticketing/shared/event-status";
import type {
  WaitingRoom,
  WaitingRoomAction,
  WaitingRoomCounts,
  WaitingRoomSettings,
} from "@ticketing/shared/schemas/waiting-room";
import { conflict, notFound } from "../../lib/errors.ts";
import { type Event, getVisibleEvent, type User } from "../accounts/access.ts";
import { describePlace, type Room, roomOfEvent } from "./places.ts";
import { admittedPositions, parseSchedule, type Schedule, withStep } from "./schedule.ts";

const isOpenAt = (room: Pick<Room, "opensAt">, now: Date) => room.opensAt <= now.toISOString();

/**
 * The schedule once the rate is `rate` from `now`: before the opening, the opening step alone (at that rate); after
 * it, a step from now, starting from what is admitted then.
 */
function scheduleFrom(room: Pick<Room, "opensAt" | "schedule">, now: Date, rate: number): Schedule {
  if (!isOpenAt(room, now)) return [[room.opensAt, 0, rate]];
  return withStep(parseSchedule(room.schedule), now, rate);
}

/** The event, if the user may run its room: who sees it, on a draft or public event; a superuser on any. */
async function roomEventFor(db: Db, user: User, eventId: number, supportEmail: string): Promise<Event> {
  const event = await getVisibleEvent(db, user, eventId);
  if (isWaitingRoomLocked(event.status, user.isSuperuser))
    throw conflict("errors.editing_locked", { support: supportEmail });
  return event;
}

async function requireRoom(db: Db, eventId: number): Promise<Room> {
  const room = await roomOfEvent(db).get({ eventId });
  if (!room) throw notFound("errors.waiting_room_not_found");
  return room;
}

/** `GET /events/:id/waiting-room`: the room and its places counted by what they mean now. */
export async function getWaitingRoom(db: Db, user: User, eventId: number, now: Date): Promise<WaitingRoom> {
  const event = await getVisibleEvent(db, user, eventId);
  return presentRoom(db, await requireRoom(db, event.id), now);
}

/** What a change writes: a room switched on afresh (its places from before gone), or fields of the room; null: none. */
type RoomChange = { fresh: Omit<typeof schema.waitingRooms.$inferInsert, "eventId"> } | Partial<Room> | null;

/**
 * Reads the event's room in a write transaction, asks `decide` what to write (it may refuse by throwing) and writes
 * it; answers the room as it then stands. The event must be one whose room the user may run.
 */
async function changeRoom(
  database: Database,
  access: { user: User; eventId: number; supportEmail: string; now: Date },
  decide: (room: Room | undefined) => RoomChange,
): Promise<WaitingRoom> {
  const event = await roomEventFor(database.db, access.user, access.eventId, access.supportEmail);
  const updatedAt = access.now.toISOString();
  await database.transaction(function* (tx) {
    const change = decide(yield* run(roomOfEvent(tx).get({ eventId: event.id })));
    const table = schema.waitingRooms;
    if (change === null) return;
    if ("fresh" in change) {
      yield* run(tx.delete(table).where(eq(table.eventId, event.id)).run());
      yield* run(
        tx
          .insert(table)
          .values({ ...change.fresh, eventId: event.id, updatedAt })
          .run(),
      );
    } else
      yield* run(
        tx
          .update(table)
          .set({ ...change, updatedAt })
          .where(eq(table.eventId, event.id))
          .run(),
      );
  });
  return presentRoom(database.db, await requireRoom(database.db, event.id), access.now);
}

/**
 * `PUT /events/:id/waiting-room`: switches the room on, or changes it. Its opening may move only before it; a new
 * rate applies from now on (those admitted stay admitted). An ended room is switched on again from scratch.
 */
export function setWaitingRoom(
  database: Database,
  user: User,
  eventId: number,
  settings: WaitingRoomSettings,
  now: Date,
  supportEmail: string,
): Promise<WaitingRoom> {
  return changeRoom(database, { user, eventId, supportEmail, now }, (current) => {
    if (!current || current.status === "ended")
      return {
        fresh: {
          ...settings,
          status: "running",
          schedule: JSON.stringify([[settings.opensAt, 0, settings.ratePerMinute]]),
        },
      };
    if (settings.opensAt !== current.opensAt && (isOpenAt(current, now) || settings.opensAt < now.toISOString()))
      throw conflict("errors.waiting_room_already_open");
    const rate = current.status === "paused" ? 0 : settings.ratePerMinute;
    const changed = settings.opensAt !== current.opensAt || settings.ratePerMinute !== current.ratePerMinute;
    const moved = { ...current, opensAt: settings.opensAt };
    return { ...settings, schedule: changed ? JSON.stringify(scheduleFrom(moved, now, rate)) : current.schedule };
  });
}

/** `POST /events/:id/waiting-room/{open-now,pause,resume,end}`. */
export function actOnWaitingRoom(
  database: Database,
  user: User,
  eventId: number,
  action: WaitingRoomAction,
  now: Date,
  supportEmail: string,
): Promise<WaitingRoom> {
  return changeRoom(database, { user, eventId, supportEmail, now }, (room) => {
    if (!room) throw notFound("errors.waiting_room_not_found");
    if (room.status === "ended") throw conflict("errors.waiting_room_ended");
    switch (action) {
      case "open-now": {
        if (isOpenAt(room, now)) throw conflict("errors.waiting_room_already_open");
        const rate = room.status === "paused" ? 0 : room.ratePerMinute;
        return { opensAt: now.toISOString(), schedule: JSON.stringify([[now.toISOString(), 0, rate]]) };
      }
      case "pause":
        return room.status === "paused"
          ? null
          : { status: "paused", schedule: JSON.stringify(scheduleFrom(room, now, 0)) };
      case "resume":
        return room.status === "running"
          ? null
          : { status: "running", schedule: JSON.stringify(scheduleFrom(room, now, room.ratePerMinute)) };
      case "end":
        return { status: "ended" };
    }
  });
}

/** Each place with its position (early ones ranked by draw), whether its buyer bought, or holds a basket. */
const placesOfRoom = (db: Db, eventId: number) =>
  db.all<{
    id: number;
    position: number;
    held_at: string | null;
    left_at: string | null;
    bought: number;
    holding: number;
  }>(sql`select p.id, coalesce(p.position, row_number() over (partition by p.early order by p.draw, p.id)) as position,
      p.held_at, p.left_at,
      exists (select 1 from baskets b where b.created_by_id = p.login_id and b.event_id = p.event_id
        and b.status in (select value from json_each(${JSON.stringify(SOLD_BASKET_STATUSES)}))) as bought,
      exists (select 1 from baskets b join selected_nodes s on s.basket_id = b.id where b.created_by_id = p.login_id
        and b.event_id = p.event_id and b.status in (select value from json_each(${JSON.stringify(OPEN_BASKET_STATUSES)}))
        and s.status = 'held') as holding
    from waiting_room_places p where p.event_id = ${eventId}`);

/** The room as the back office shows it, its places counted by what they mean now. */
export async function presentRoom(db: Db, room: Room, now: Date): Promise<WaitingRoom> {
  const open = isOpenAt(room, now);
  const counts: WaitingRoomCounts = { places: 0, waiting: 0, admitted: 0, holding: 0, bought: 0, lapsed: 0 };
  for (const row of await placesOfRoom(db, room.eventId)) {
    counts.places += 1;
    if (row.left_at !== null) continue;
    if (row.bought) counts.bought += 1;
    else if (row.holding) counts.holding += 1;
    else {
      const state = describePlace(room, { heldAt: row.held_at }, open ? row.position : null, now).state;
      if (state === "admitted") counts.admitted += 1;
      else if (state === "lapsed") counts.lapsed += 1;
      else counts.waiting += 1;
    }
  }
  return {
    id: room.eventId,
    eventId: room.eventId,
    opensAt: room.opensAt,
    ratePerMinute: room.ratePerMinute,
    admissionMinutes: room.admissionMinutes,
    status: room.status,
    isOpen: open,
    admittedPositions: open ? admittedPositions(parseSchedule(room.schedule), now) : 0,
    counts,
    updatedAt: room.updatedAt,
  };
}
