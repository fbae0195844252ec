// A buyer's side of the waiting room (`/frontend/waiting-room`): take a place, or read one's own.
import type { Database } from "@ticketing/db";
import type { WaitingRoomJoin, WaitingRoomPlace, WaitingRoomPlaceQuery } from "@ticketing/shared/schemas/waiting-room";
import { notFound } from "../../lib/errors.ts";
import { findLogin } from "../baskets/baskets.ts";
import { findEvent } from "../events/event-pages.ts";
import {
  cryptoDraws,
  type DrawSource,
  describePlace,
  isRoomOn,
  openPlace,
  PLACES_PER_ADDRESS,
  placeOfLogin,
  positionOf,
  roomOfEvent,
  takePlace,
} from "./places.ts";

/** Who asks: the caller's logins, the client's address and device cookie, and how far the limits stretch. */
export interface Caller {
  loginIds: number[];
  address: string;
  device: string | null;
  /** RATE_LIMIT_MULTIPLIER: scales the places one address may hold. */
  multiplier: number;
  now: Date;
  draws?: DrawSource;
}

/**
 * `POST /frontend/waiting-room`: the caller's place in the event's room, taken now if they have none (or a new one
 * at the back when theirs lapsed). A preview, or an event whose room is off or ended, needs none: state `open`.
 */
export async function joinWaitingRoom(
  database: Database,
  caller: Caller,
  body: WaitingRoomJoin,
): Promise<{ place: WaitingRoomPlace; isNew: boolean }> {
  const event = await findEvent(database.db, body.eventId);
  const login = await findLogin(database.db, caller.loginIds, event.id, body.testing);
  const room = await roomOfEvent(database.db).get({ eventId: event.id });
  if (login.testing || !isRoomOn(room)) return { place: openPlace(event.id), isNew: false };
  const { place, position, isNew } = await takePlace(database, room, {
    eventId: event.id,
    loginId: login.id,
    address: caller.address,
    device: caller.device,
    now: caller.now,
    placesPerAddress: PLACES_PER_ADDRESS * caller.multiplier,
    draws: caller.draws ?? cryptoDraws,
  });
  return { place: describePlace(room, place, position, caller.now), isNew };
}

/** `GET /frontend/waiting-room?event_id=`: the caller's place as it stands; 404 when they have none yet. */
export async function readWaitingRoomPlace(
  database: Database,
  caller: Pick<Caller, "loginIds" | "now">,
  query: WaitingRoomPlaceQuery,
): Promise<WaitingRoomPlace> {
  const event = await findEvent(database.db, query.eventId);
  const login = await findLogin(database.db, caller.loginIds, event.id, query.testing);
  const room = await roomOfEvent(database.db).get({ eventId: event.id });
  if (login.testing || !isRoomOn(room)) return openPlace(event.id);
  const place = await placeOfLogin(database.db).get({ eventId: event.id, loginId: login.id });
  if (!place) throw notFound();
  return describePlace(room, place, await positionOf(database.db, room, place, caller.now), caller.now);
}
