// An event's waiting list, the organiser's side (issue 31, docs/decisions/0038): `/events/:id/waiting-list`, for
// staff who see the event. The buyer's side is `/frontend/waiting-list` (routes/frontend-waiting-list.ts).
import {
  WaitingList,
  WaitingListEntries,
  WaitingListEntriesQuery,
  WaitingListEntry,
  WaitingListQuery,
  WaitingListSettings,
} from "@ticketing/shared/schemas/waiting-list";
import { Hono } from "hono";
import { type AppEnv, type Ctx, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import {
  getWaitingList,
  listWaitingListEntries,
  offerEntryByHand,
  removeEntry,
  setWaitingList,
} from "../services/waiting-list/organiser.ts";

/** Mounted at `/events/:id/waiting-list`: `idParam` reads the event's id. */
export const waitingListRoutes = new Hono<AppEnv>();

const entryIds = (c: Ctx) => ({ eventId: idParam(c), entryId: idParam(c, "entryId") });

waitingListRoutes.get(
  "/",
  route(
    {
      summary: "An event's waiting list, its entries counted by state (404: none)",
      description: "`testing=true` counts preview mode's own list.",
      auth: "user",
      scope: "read",
      query: WaitingListQuery,
      answer: WaitingList,
    },
    async (c, { user, query }) =>
      answer(c, await getWaitingList(c.get("deps").database.db, user, idParam(c), query.testing)),
  ),
);

waitingListRoutes.put(
  "/",
  route(
    {
      summary: "Switch an event's waiting list on, or change it",
      description:
        "409 when the event's buyers cannot sign in by email or through a third party (joining needs a proved " +
        "email), unless the list takes no names. Offers the settings make due (automatic offers switched on) are " +
        "made in the same write. A closed or archived event's list: superusers only (409).",
      auth: "user",
      scope: "manage",
      body: WaitingListSettings,
      answer: WaitingList,
    },
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await setWaitingList(database, user, idParam(c), body, now(c), config.supportEmail));
    },
  ),
);

waitingListRoutes.get(
  "/entries",
  route(
    {
      summary: "An event's waiting-list entries in order of joining, each waiting one with its position",
      description: "`testing=true`: preview mode's list. `state` filters; `page` (from 1) and `per_page` (≤ 500).",
      auth: "user",
      scope: "read",
      query: WaitingListEntriesQuery,
      answer: WaitingListEntries,
    },
    async (c, { user, query }) =>
      answer(c, await listWaitingListEntries(c.get("deps").database.db, user, idParam(c), query)),
  ),
);

waitingListRoutes.post(
  "/entries/:entryId/offer",
  route(
    {
      summary: "Offer a waiting entry by hand, out of line",
      description:
        "The entry's stock is held for it for the list's offer time and its offer mailed. 409 when it no longer " +
        "waits, or when the stock has no room for it (with partial offers: for any of it).",
      auth: "user",
      scope: "manage",
      answer: WaitingListEntry,
    },
    async (c, { user }) => {
      const { database, config } = c.get("deps");
      return answer(c, await offerEntryByHand(database, user, entryIds(c), now(c), config.supportEmail));
    },
  ),
);

waitingListRoutes.delete(
  "/entries/:entryId",
  route(
    {
      summary: "Remove an entry from the waiting list",
      description:
        "What it waited for leaves the list, or the stock its unopened offer held comes back; either is offered " +
        "on in the same write when the list is automatic. 409 when it neither waits nor holds an unopened offer.",
      auth: "user",
      scope: "manage",
      answer: WaitingListEntry,
    },
    async (c, { user }) => {
      const { database, config } = c.get("deps");
      return answer(c, await removeEntry(database, user, entryIds(c), now(c), config.supportEmail));
    },
  ),
);
