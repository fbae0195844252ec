import type { WaitingRoomPlace } from "@ticketing/shared/schemas/waiting-room";
import { data, redirect } from "react-router";
import { ApiError, refusedStatus } from "#app/lib/api.server.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import { hasWaitingRoom, readPlace, takePlace } from "#app/lib/waiting-room.server.ts";
import { isTurn, waitingRoomHref } from "#app/lib/waiting-room.ts";
import type { Route } from "./+types/route";

export type WaitingRoomData = {
  /** Null when the room refused a place (one per device and per network): `errors` says why. */
  place: WaitingRoomPlace | null;
  errors: string[];
};

/**
 * The room's guards: an event with a room (a preview skips it), open for sale (else the buy page says it is closed),
 * and a signed-in buyer (else the login page, back here afterwards).
 */
async function openRoom(args: Route.LoaderArgs | Route.ActionArgs) {
  const office = await TicketOffice.open(args);
  if (!hasWaitingRoom(office) || !office.areBasketActionsAllowed) throw await office.redirect(office.href("buy"));
  const api = await office.requireLoginApi();
  return { office, api };
}

/** The office's headers (the session), the device cookie the API set, and any of `extra`. */
async function headersOf(office: TicketOffice, setCookies: string[], extra: Record<string, string> = {}) {
  const headers = await office.headers();
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
}

/** A place taken, or why not: a refusal (409/429) is shown on the page; a room gone meanwhile leads to the buy page. */
async function tryTakePlace(office: TicketOffice, api: Awaited<ReturnType<typeof openRoom>>["api"]) {
  try {
    return await takePlace(office, api);
  } catch (error) {
    if (error instanceof ApiError) return { refusal: error };
    if (refusedStatus(error) === 404) throw await office.redirect(office.href("buy"));
    throw error;
  }
}

/**
 * The buyer's place, taken on their first visit. Their turn: on to the buy page. Otherwise the page, which reloads
 * itself (`Refresh`, no JavaScript needed) while the place can still move on; a lapsed place waits for its buyer to
 * join again.
 */
export async function loader(args: Route.LoaderArgs) {
  const { office, api } = await openRoom(args);
  const kept = await readPlace(office, api);
  const taken = kept ? { place: kept, setCookies: [] } : await tryTakePlace(office, api);
  if ("refusal" in taken) {
    const { errors, status } = taken.refusal;
    return data<WaitingRoomData>({ place: null, errors }, { status, headers: await headersOf(office, []) });
  }
  const { place, setCookies } = taken;
  if (isTurn(place)) throw redirect(office.href("buy"), { headers: await headersOf(office, setCookies) });
  const refresh: Record<string, string> = place.state === "lapsed" ? {} : { Refresh: String(place.refreshSeconds) };
  return data<WaitingRoomData>({ place, errors: [] }, { headers: await headersOf(office, setCookies, refresh) });
}

/** "Join the queue again": a new place at the back for a lapsed buyer (a waiting buyer keeps theirs). */
export async function action(args: Route.ActionArgs) {
  await readPostedForm(args.request);
  const { office, api } = await openRoom(args);
  const taken = await tryTakePlace(office, api);
  if ("refusal" in taken) {
    const { errors, status } = taken.refusal;
    return data({ errors }, { status, headers: await headersOf(office, []) });
  }
  const { place, setCookies } = taken;
  const to = isTurn(place) ? office.href("buy") : waitingRoomHref(office.location.base);
  return redirect(to, { headers: await headersOf(office, setCookies) });
}
