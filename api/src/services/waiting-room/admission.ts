// Whether a buyer may act on their basket while the event's waiting room is on (docs/decisions/0037): basket
// actions — opening one, adding, holding again — need an admitted place, so a script cannot skip the room by calling
// the API. Previews, events without a room and ended rooms need none.
import { and, type Database, eq, isNull, schema } from "@ticketing/db";
import { conflict } from "../../lib/errors.ts";
import { describePlace, isRoomOn, type Place, placeOfLogin, positionOf, roomOfEvent } from "./places.ts";

interface Visit {
  event: { id: number };
  login: { id: number; testing: boolean };
  now: Date;
}

/**
 * 409 unless the login's turn has come and has not lapsed. Answers its admitted place, or null when no turn is needed
 * (a preview, no room, an ended one): what `noteHeld` takes once the action holds a basket.
 */
export async function assertAdmitted(database: Database, { event, login, now }: Visit): Promise<Place | null> {
  if (login.testing) return null;
  const room = await roomOfEvent(database.db).get({ eventId: event.id });
  if (!isRoomOn(room)) return null;
  const place = await placeOfLogin(database.db).get({ eventId: event.id, loginId: login.id });
  if (!place) throw conflict("errors.waiting_room_turn_required");
  const position = await positionOf(database.db, room, place, now);
  const { state } = describePlace(room, place, position, now);
  if (state === "lapsed") throw conflict("errors.waiting_room_lapsed");
  if (state !== "admitted") throw conflict("errors.waiting_room_turn_required");
  return place;
}

/**
 * Records that the buyer of an admitted place (`assertAdmitted`'s answer) now holds a basket: their admission then
 * lasts. Writes only the first time; nothing for no place.
 */
export async function noteHeld(database: Database, place: Place | null, now: Date): Promise<void> {
  if (!place || place.heldAt !== null) return;
  const table = schema.waitingRoomPlaces;
  await database.db
    .update(table)
    .set({ heldAt: now.toISOString() })
    .where(and(eq(table.id, place.id), isNull(table.heldAt)));
}
