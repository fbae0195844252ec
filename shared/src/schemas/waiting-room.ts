// An event's waiting room (issue 30, docs/decisions/0037): the organiser's settings and live view
// (`/events/:id/waiting-room`), and a buyer's place (`/frontend/waiting-room`).
import { z } from "zod";
import {
  MAX_WAITING_ROOM_ADMISSION_MINUTES,
  MAX_WAITING_ROOM_RATE_PER_MINUTE,
  WAITING_ROOM_PLACE_STATES,
  WAITING_ROOM_STATUSES,
} from "../constants.ts";
import { Id, IsoDate, zBooleanFlag, zId, zIsoDate } from "./common.ts";

/** `PUT /events/:id/waiting-room`: switches the room on, or changes it. The opening may move only before it. */
export const WaitingRoomSettings = z.strictObject({
  opensAt: zIsoDate,
  ratePerMinute: z.number().int().min(1).max(MAX_WAITING_ROOM_RATE_PER_MINUTE),
  admissionMinutes: z.number().int().min(1).max(MAX_WAITING_ROOM_ADMISSION_MINUTES),
});
export type WaitingRoomSettings = z.output<typeof WaitingRoomSettings>;

/** The organiser's buttons: `POST /events/:id/waiting-room/{open-now,pause,resume,end}`. */
export const WAITING_ROOM_ACTIONS = ["open-now", "pause", "resume", "end"] as const;
export type WaitingRoomAction = (typeof WAITING_ROOM_ACTIONS)[number];

/** How many places are in each state, live. */
export const WaitingRoomCounts = z.object({
  /** Every place taken (those who left and rejoined count once per place). */
  places: z.number().int(),
  /** Not admitted yet (before the opening, or waiting for their turn). */
  waiting: z.number().int(),
  /** Admitted, with no basket held yet and time left. */
  admitted: z.number().int(),
  /** Admitted and holding (or paying for) a basket. */
  holding: z.number().int(),
  /** Admitted buyers who bought. */
  bought: z.number().int(),
  /** Admitted, but no basket was held in time. */
  lapsed: z.number().int(),
});
export type WaitingRoomCounts = z.infer<typeof WaitingRoomCounts>;

/** `GET /events/:id/waiting-room` (404 when the event has none). */
export const WaitingRoom = z.object({
  id: Id,
  eventId: Id,
  opensAt: IsoDate,
  ratePerMinute: z.number().int(),
  admissionMinutes: z.number().int(),
  status: z.enum(WAITING_ROOM_STATUSES),
  /** Whether the opening time has passed. */
  isOpen: z.boolean(),
  /** How many positions are admitted now (some may be beyond the last place). */
  admittedPositions: z.number().int(),
  counts: WaitingRoomCounts,
  updatedAt: IsoDate.nullable(),
});
export type WaitingRoom = z.infer<typeof WaitingRoom>;

/** `POST /frontend/waiting-room` (take a place, or get one's own) and `GET /frontend/waiting-room?event_id=`. */
export const WaitingRoomJoin = z.strictObject({
  eventId: zId,
  testing: zBooleanFlag.default(false),
});
export type WaitingRoomJoin = z.output<typeof WaitingRoomJoin>;
export const WaitingRoomPlaceQuery = z.object({ eventId: zId, testing: zBooleanFlag.default(false) });
export type WaitingRoomPlaceQuery = z.output<typeof WaitingRoomPlaceQuery>;

/** A buyer's place and what it means now. */
export const WaitingRoomPlace = z.object({
  eventId: Id,
  state: z.enum(WAITING_ROOM_PLACE_STATES),
  opensAt: IsoDate.nullable(),
  /** 1-based, from the opening on (null before it, and when no place is needed). */
  position: z.number().int().nullable(),
  /** Places ahead that are not admitted yet. */
  ahead: z.number().int().nullable(),
  /** Seconds until admission at the current rate (null when paused, admitted or before the opening). */
  estimatedWaitSeconds: z.number().int().nullable(),
  /** Until when an admission without a held basket lasts (null once a basket is held: it then lasts). */
  admittedUntil: IsoDate.nullable(),
  /** When the page should look again. */
  refreshSeconds: z.number().int(),
});
export type WaitingRoomPlace = z.infer<typeof WaitingRoomPlace>;
