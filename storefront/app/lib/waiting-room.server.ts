// A buyer's place in an event's waiting room, through the API (issue 30, docs/decisions/0037). The buy page reads it;
// the room page takes one.

import type { WaitingRoomPlace } from "@ticketing/shared/schemas/waiting-room";
import { type ApiClient, refusedStatus } from "./api.server";
import type { TicketOffice } from "./ticket-office.server";
import { isTurn, waitingRoomHref } from "./waiting-room";

/** Whether this visit goes through a room: the event has one (PublicInfos, loaded already) and it is not a preview. */
export const hasWaitingRoom = (office: TicketOffice) => !office.testing && office.event.hasWaitingRoom;

/**
 * The login's place, or null when it has none yet. A read: the buy page asks on every load, and a lapsed place must
 * stay lapsed until its buyer chooses to join again (taking a place gives a lapsed buyer a new one at the back).
 */
export async function readPlace(office: TicketOffice, api: ApiClient): Promise<WaitingRoomPlace | null> {
  try {
    return await api.get<WaitingRoomPlace>("/frontend/waiting-room", {
      eventId: office.event.id,
      testing: office.testing,
    });
  } catch (error) {
    if (refusedStatus(error) === 404) return null;
    throw error;
  }
}

/**
 * Takes a place (or answers the login's own; a lapsed buyer gets a new one at the back). The room gives one place per
 * device: the browser's device cookies go to the API, and the cookie it sets comes back in `setCookies`, for the
 * visitor's answer (as the preview's staff sign-in does, docs/decisions/0033).
 */
export async function takePlace(office: TicketOffice, api: ApiClient) {
  const { answer, setCookies } = await api.signIn<WaitingRoomPlace>(
    "/frontend/waiting-room",
    { eventId: office.event.id, testing: office.testing },
    office.request.headers.get("Cookie"),
  );
  return { place: answer, setCookies };
}

/**
 * The buy page's guard: on an event with a room, only a buyer whose turn it is may choose tickets; anyone else goes to
 * the room (which gives a place to a newcomer). Answers the place (null without a room: no API call then).
 */
export async function requireTurn(office: TicketOffice, api: ApiClient): Promise<WaitingRoomPlace | null> {
  if (!hasWaitingRoom(office)) return null;
  const place = await readPlace(office, api);
  if (place && isTurn(place)) return place;
  throw await office.redirect(waitingRoomHref(office.location.base));
}
