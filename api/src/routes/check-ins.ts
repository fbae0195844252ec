// `/events/:id/check-ins`: the door of an event (docs/decisions/0027-ticket-check-in.md). Staff of its unit scan
// tickets, see who is in, and the figures; with `preview`, the preview's test tickets instead of real ones.
import {
  CheckInCounts,
  CheckInCountsQuery,
  CheckInResult,
  CheckInRow,
  CheckInScan,
} from "@ticketing/shared/schemas/check-ins";
import { Hono } from "hono";
import { type AppEnv, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { answerList } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
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
        "`preview=true` checks in the preview's test tickets). Each answer carries the counts after it.",
      auth: "user",
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
      query: CheckInCountsQuery,
      answer: CheckInCounts,
    },
    async (c, { user, query }) =>
      answer(c, await visibleCheckInCounts(c.get("deps").database.db, user, idParam(c), query.preview)),
  ),
);
