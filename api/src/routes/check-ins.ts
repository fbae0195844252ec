// `/events/:id/check-ins`: the door of an event (docs/decisions/0027-ticket-check-in.md). Staff of its unit scan
// tickets, see who is in, and the figures; with `preview`, the preview's test tickets instead of real ones.
import {
  CheckInCounts,
  CheckInCountsQuery,
  CheckInDouble,
  CheckInResult,
  CheckInRow,
  CheckInScan,
  CheckInSnapshot,
  CheckInSync,
  CheckInSyncResult,
} from "@ticketing/shared/schemas/check-ins";
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { answerList } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
import { checkInSnapshot, listDoubles, syncScans } from "../services/tickets/check-in-sync.ts";
import { CHECK_IN_LIST, listCheckIns, scanTicket, visibleCheckInCounts } from "../services/tickets/check-ins.ts";

/** Mounted at `/events/:id/check-ins` (app.ts): `idParam` reads the event's id. */
export const checkInRoutes = new Hono<AppEnv>();

checkInRoutes.post(
  "/",
  route(
    {
      summary: "Scan a ticket at the event's door: checked in once, or why not",
      description:
        "Members and owners of the event's unit, superusers. `code` is the ticket's signed code (its QR code). 201 " +
        "`checked_in` when this scan let the ticket in; 200 `already_checked_in` with when and by whom it was first " +
        "scanned; 200 `refused` with a `reason`: `invalid_code` (not signed by us), `other_event`, `refunded`, " +
        "`cancelled` (not paid, or released), `wrong_mode` (a test ticket at the real door or the reverse: " +
        "`preview=true` checks in the preview's test tickets). Each answer carries the counts after it. `device_id`, " +
        "the scanning device's id: a ticket already in scanned on another device is reported (`GET …/doubles`).",
      auth: "user",
      scope: "check_in",
      body: CheckInScan,
      answer: CheckInResult,
      status: 201,
    },
    async (c, { user, body }) => {
      const { created, result } = await scanTicket(c.get("deps"), user, idParam(c), body, now(c));
      if (created) c.get("deps").onWebhookQueued?.();
      return answer(c, result, created ? 201 : 200);
    },
  ),
);

checkInRoutes.get(
  "/",
  route(
    {
      summary: "The event's check-in list: one row per ticket sold, checked in or not",
      description:
        "Members and owners of the event's unit, superusers. Filters: `checked_in` (true or false), `q` (reference, " +
        "holder's name or email), `preview` (the test tickets instead of real ones).",
      auth: "user",
      scope: "read",
      list: CHECK_IN_LIST,
      answer: CheckInRow,
    },
    async (c, { user, list }) =>
      answerList(c, "check-ins", list, await listCheckIns(c.get("deps").database.db, user, idParam(c), list)),
  ),
);

checkInRoutes.get(
  "/counts",
  route(
    {
      summary: "The event's tickets sold and how many of them are checked in",
      description: "Members and owners of the event's unit, superusers. `preview=true` counts the test tickets.",
      auth: "user",
      scope: "read",
      query: CheckInCountsQuery,
      answer: CheckInCounts,
    },
    async (c, { user, query }) =>
      answer(c, await visibleCheckInCounts(c.get("deps").database.db, user, idParam(c), query.preview)),
  ),
);

// Offline check-in (docs/decisions/0048-offline-check-in.md): what a door sends when the network is back, the tickets
// scanned on two devices, and the snapshot a door keeps for when it is offline.
checkInRoutes.post(
  "/sync",
  route(
    {
      summary: "Send the scans a door made offline: each admitted as a live scan, at its own time",
      description:
        "Members and owners of the event's unit, superusers. `device_id` is the scanning device's; `scans` (at most " +
        "200) each a `code` and the device's `scanned_at`. Each scan goes through the same admission as " +
        "`POST …/check-ins` and is answered in order: `checked_in` (also for a scan sent again: a retry changes " +
        "nothing), `already_checked_in` with the first check-in's device, staff and time, or `refused` with its " +
        "`reason` (also `scanned_in_future`, more than 5 minutes ahead of the server, and `scanned_too_long_ago`, " +
        "more than 7 days). `double` when the ticket was first checked in on another device: it is reported once.",
      auth: "user",
      scope: "check_in",
      body: CheckInSync,
      answer: CheckInSyncResult,
    },
    async (c, { user, body }) => answer(c, await syncScans(c.get("deps"), user, idParam(c), body, now(c))),
  ),
);

checkInRoutes.get(
  "/doubles",
  route(
    {
      summary: "The event's tickets scanned on two devices: the first scan and the other device's",
      description:
        "Members and owners of the event's unit, superusers. `preview=true` for the test tickets. Newest reported " +
        "first, at most 500.",
      auth: "user",
      scope: "read",
      query: CheckInCountsQuery,
      answer: z.array(CheckInDouble),
    },
    async (c, { user, query }) => answer(c, await listDoubles(c.get("deps").database, user, idParam(c), query.preview)),
  ),
);

checkInRoutes.get(
  "/snapshot",
  route(
    {
      summary: "The event's tickets sold now and whether each is in, for a door that may lose the network",
      description:
        "Members and owners of the event's unit, superusers. `preview=true` for the test tickets. A ticket not in " +
        "the list was not sold when it was taken (refunded, cancelled, or sold later).",
      auth: "user",
      scope: "check_in",
      query: CheckInCountsQuery,
      answer: CheckInSnapshot,
    },
    async (c, { user, query }) =>
      answer(c, await checkInSnapshot(c.get("deps").database, user, idParam(c), query.preview, now(c))),
  ),
);
