// What the ticket office makes of a buyer's place in an event's waiting room (issue 30): whether it lets them choose
// tickets, and its estimated wait as a person would say it.
import type { WaitingRoomPlace } from "@ticketing/shared/schemas/waiting-room";

/** The room's page, under the office's base (`/tickets/demo`); a preview has none: previews skip the room. */
export const waitingRoomHref = (base: string) => `${base}/waiting-room`;

/** A place that lets its buyer choose tickets now: admitted, or no place needed (the room is off or ended). */
export const isTurn = (place: Pick<WaitingRoomPlace, "state">) => place.state === "admitted" || place.state === "open";

/**
 * An estimated wait, rounded as a person says it ("about 3 minutes", "about 2 hours"): the estimate follows a rate
 * that may change, so a figure to the second would promise more than it knows.
 */
export type WaitEstimate = { unit: "underAMinute" } | { unit: "minutes" | "hours"; count: number };

/** Whole minutes up to an hour and a half, whole hours beyond. */
export function roundedWait(seconds: number): WaitEstimate {
  if (seconds < 60) return { unit: "underAMinute" };
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return { unit: "minutes", count: minutes };
  return { unit: "hours", count: Math.round(minutes / 60) };
}
