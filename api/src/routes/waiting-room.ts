// An event's waiting room (docs/decisions/0037): the organiser's (`/events/:id/waiting-room`, for staff who see the
// event) and the buyer's place (`/frontend/waiting-room`, for the caller's login to the event).
import {
  WAITING_ROOM_ACTIONS,
  WaitingRoom,
  WaitingRoomJoin,
  WaitingRoomPlace,
  WaitingRoomPlaceQuery,
  WaitingRoomSettings,
} from "@ticketing/shared/schemas/waiting-room";
import { Hono } from "hono";
import { type AppEnv, now } from "../context.ts";
import { giveDeviceCookie, presentedDevice, TICKET_OFFICE_DEVICE } from "../lib/device-cookies.ts";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { joinWaitingRoom, readWaitingRoomPlace } from "../services/waiting-room/buyer-places.ts";
import { actOnWaitingRoom, getWaitingRoom, setWaitingRoom } from "../services/waiting-room/rooms.ts";

/** Mounted at `/events/:id/waiting-room`: `idParam` reads the event's id. */
export const waitingRoomRoutes = new Hono<AppEnv>();

waitingRoomRoutes.get(
  "/",
  route(
    {
      summary: "An event's waiting room, its places counted live (404: none)",
      auth: "user",
      scope: "read",
      answer: WaitingRoom,
    },
    async (c, { user }) => answer(c, await getWaitingRoom(c.get("deps").database.db, user, idParam(c), now(c))),
  ),
);

waitingRoomRoutes.put(
  "/",
  route(
    {
      summary: "Switch an event's waiting room on, or change it",
      description:
        "The opening time may move only before the opening; a new rate applies from now on. A closed or archived " +
        "event's room: superusers only (409).",
      auth: "user",
      scope: "manage",
      body: WaitingRoomSettings,
      answer: WaitingRoom,
    },
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await setWaitingRoom(database, user, idParam(c), body, now(c), config.supportEmail));
    },
  ),
);

for (const action of WAITING_ROOM_ACTIONS)
  waitingRoomRoutes.post(
    `/${action}`,
    route(
      {
        summary: `${action[0]?.toUpperCase()}${action.slice(1).replace("-", " ")} an event's waiting room`,
        auth: "user",
        scope: "manage",
        answer: WaitingRoom,
      },
      async (c, { user }) => {
        const { database, config } = c.get("deps");
        return answer(c, await actOnWaitingRoom(database, user, idParam(c), action, now(c), config.supportEmail));
      },
    ),
  );

/** Mounted at `/frontend/waiting-room`. */
export const buyerWaitingRoomRoutes = new Hono<AppEnv>();

buyerWaitingRoomRoutes.post(
  "/",
  route(
    {
      summary: "Take a place in the event's waiting room, or get yours",
      description:
        "One place per login, per browser (the ticket office's device cookie) and a few per address; a lapsed " +
        "place is left for a new one at the back. State `open`: no place is needed (201 only for a new place).",
      auth: "buyer",
      body: WaitingRoomJoin,
      answer: WaitingRoomPlace,
      status: 201,
    },
    async (c, { logins, body }) => {
      const { database, config } = c.get("deps");
      const { place, isNew } = await joinWaitingRoom(
        database,
        {
          loginIds: logins,
          address: c.get("clientIp"),
          // A browser without the ticket office's device cookie (a sign-in by email link) gets one here.
          device: presentedDevice(c, TICKET_OFFICE_DEVICE, now(c)) ?? giveDeviceCookie(c, TICKET_OFFICE_DEVICE, now(c)),
          multiplier: config.rateLimitMultiplier,
          now: now(c),
        },
        body,
      );
      return answer(c, place, isNew ? 201 : 200);
    },
  ),
);

buyerWaitingRoomRoutes.get(
  "/",
  route(
    {
      summary: "Your place in the event's waiting room (404: none taken yet)",
      auth: "buyer",
      query: WaitingRoomPlaceQuery,
      answer: WaitingRoomPlace,
    },
    async (c, { logins, query }) =>
      answer(c, await readWaitingRoomPlace(c.get("deps").database, { loginIds: logins, now: now(c) }, query)),
  ),
);
