// Whether a buyer may act on their basket while the event's waiting room is on (docs/decisions/0037): basket
// actions — opening one, adding, holding again — need an admitted place, so a script cannot skip the room by calling
// the API. Previews, events without a room and ended rooms need none.
import { and, type Database, eq, isNull, schema } from "@ticketing/db";
import { conflict } from "../../lib/errors.ts";
import { describePlace, isRoomOn, placeOfLogin, positionOf, roomOfEvent } from "./places.ts";

interface Visit {
  event: { id: number };
  login: { id: number; testing: boolean };
  now: Date;
}

/** 409 unless the login's turn has come and has not lapsed (or no turn is needed). */
export async function assertAdmitted(database: Database, { event, login, now }: Visit): Promise<void> {
  if (login.testing) return;
  const room = await roomOfEvent(database.db).get({ eventId: event.id });
  if (!isRoomOn(room)) return;
  const place = await placeOfLogin(database.db).get({ eventId: event.id, loginId: login.id });
  if (!place) throw conflict("errors.waiting_room_turn_required");
  const position = await positionOf(database.db, room, place, now);
  const { state } = describePlace(room, place, position, now);
  if (state === "lapsed") throw conflict("errors.waiting_room_lapsed");
  if (state !== "admitted") throw conflict("errors.waiting_room_turn_required");
}

/** Records that an admitted buyer holds a basket: their admission then lasts. Writes only the first time. */
export async function noteHeld(
  database: Database,
  { eventId, loginId, now }: { eventId: number; loginId: number; now: Date },
): Promise<void> {
  const room = await roomOfEvent(database.db).get({ eventId });
  if (!isRoomOn(room)) return;
  const place = await placeOfLogin(database.db).get({ eventId, loginId });
  if (!place || place.heldAt !== null) return;
  const table = schema.waitingRoomPlaces;
  await database.db
    .update(table)
    .set({ heldAt: now.toISOString() })
    .where(and(eq(table.id, place.id), isNull(table.heldAt)));
}
