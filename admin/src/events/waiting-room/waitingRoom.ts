// The back office's waiting room (issue 30), apart from the screen: which buttons a room offers in each state, the
// figures it shows, the settings a new room starts from, and who may run it.
import {
  DEFAULT_WAITING_ROOM_ADMISSION_MINUTES,
  DEFAULT_WAITING_ROOM_RATE_PER_MINUTE,
} from "@ticketing/shared/constants";
import { isWaitingRoomLocked } from "@ticketing/shared/event-status";
import type { Event } from "@ticketing/shared/schemas/events";
import type {
  WaitingRoom,
  WaitingRoomAction,
  WaitingRoomCounts,
  WaitingRoomSettings,
} from "@ticketing/shared/schemas/waiting-room";
import type { UserIdentity } from "react-admin";

/**
 * How often the screen asks the room again while it is shown: an on-sale moves by the second, and the organiser
 * watches it to change the rate (the buyers' page refreshes more slowly, WAITING_ROOM_REFRESH_SECONDS).
 */
export const ROOM_REFRESH_MS = 5_000;

/** The figures in the order a buyer goes through them, then all places taken. */
export const COUNT_KEYS = [
  "waiting",
  "admitted",
  "holding",
  "bought",
  "lapsed",
  "places",
] as const satisfies readonly (keyof WaitingRoomCounts)[];

/**
 * The organiser's buttons for a room: opening now only before the opening (and not once ended), pausing a running
 * room, resuming a paused one, ending one that has not ended. An ended room offers nothing.
 */
export function waitingRoomActions(room: Pick<WaitingRoom, "status" | "isOpen">): WaitingRoomAction[] {
  if (room.status === "ended") return [];
  return [...(room.isOpen ? [] : (["open-now"] as const)), room.status === "running" ? "pause" : "resume", "end"];
}

/** What the form of a room not switched on yet starts from: the next full hour, the default rate and admission. */
export function newRoomSettings(now: Date): WaitingRoomSettings {
  const nextHour = new Date(now);
  nextHour.setMinutes(60, 0, 0);
  return {
    opensAt: nextHour.toISOString(),
    ratePerMinute: DEFAULT_WAITING_ROOM_RATE_PER_MINUTE,
    admissionMinutes: DEFAULT_WAITING_ROOM_ADMISSION_MINUTES,
  };
}

/** The room's settings, as its form edits them. */
export const settingsOf = ({ opensAt, ratePerMinute, admissionMinutes }: WaitingRoom): WaitingRoomSettings => ({
  opensAt,
  ratePerMinute,
  admissionMinutes,
});

/** Whether the room is only shown to the signed-in user (`isWaitingRoomLocked`; the API answers 409 otherwise). */
export const isRoomLockedFor = (event: Pick<Event, "status"> | undefined, identity: UserIdentity | undefined) =>
  event === undefined || isWaitingRoomLocked(event.status, identity?.isSuperuser === true);
