// What the pages that run an event's on-sale (its waiting room, its waiting list) share: the event of the page's
// address, whether it is unknown to the user (a 404), and whether the user may only look (a closed or archived event,
// but to superusers: `isRoomLockedFor`, the API's rule).
import type { Event } from "@ticketing/shared/schemas/events";
import { HttpError, useGetIdentity, useGetOne, useParams } from "react-admin";
import { isRoomLockedFor } from "./waitingRoom.ts";

export function useOnSaleEvent() {
  const { id } = useParams<{ id: string }>();
  const eventId = Number(id);
  const isEventId = Number.isInteger(eventId) && eventId > 0;
  const { data: event, error } = useGetOne<Event>("events", { id: eventId }, { enabled: isEventId, retry: false });
  const { identity } = useGetIdentity();
  const notFound = !isEventId || (error instanceof HttpError && error.status === 404);
  return { eventId, event, notFound, readOnly: isRoomLockedFor(event, identity) };
}
