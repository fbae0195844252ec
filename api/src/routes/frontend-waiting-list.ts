// The buyer's side of an event's waiting list (issue 31, docs/decisions/0038), mounted at `/frontend/waiting-list`:
// their own entries (for the caller's logins, a proved email to join), and an offer reached from its mail (the code
// the mail carries, no session needed).
import {
  OpenedWaitingListOffer,
  OwnWaitingListEntry,
  OwnWaitingListQuery,
  WaitingListJoin,
  WaitingListOffer,
  WaitingListOfferCode,
  WaitingListOfferQuery,
} from "@ticketing/shared/schemas/waiting-list";
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { joinWaitingList, leaveEntry, listOwnEntries } from "../services/waiting-list/entries.ts";
import { declineOffer, openOffer, readOffer } from "../services/waiting-list/offer-links.ts";

export const frontendWaitingListRoutes = new Hono<AppEnv>();

frontendWaitingListRoutes.post(
  "/",
  route(
    {
      summary: "Join the event's waiting list for a sold-out article",
      description:
        "As the caller's login to the event with a proved email (a trusted email's link or a third party's token: " +
        "409 otherwise). The article must be sold out for the quantity asked (409), and the quantity within the " +
        "event's and the article's caps per buyer (409). One entry per buyer and article in line. A confirmation " +
        "mail is queued.",
      auth: "buyer",
      body: WaitingListJoin,
      answer: OwnWaitingListEntry,
      status: 201,
    },
    async (c, { logins, body }) => {
      const { database, onMailQueued } = c.get("deps");
      const entry = await joinWaitingList(database, {
        loginIds: logins,
        body,
        language: c.get("language"),
        now: now(c),
      });
      onMailQueued?.();
      return answer(c, entry, 201);
    },
  ),
);

frontendWaitingListRoutes.get(
  "/",
  route(
    {
      summary: "Your entries on the event's waiting list, with your position in line",
      auth: "buyer",
      query: OwnWaitingListQuery,
      answer: z.array(OwnWaitingListEntry),
    },
    async (c, { logins, query }) =>
      answer(c, await listOwnEntries(c.get("deps").database.db, logins, query, c.get("language"))),
  ),
);

frontendWaitingListRoutes.delete(
  "/:id",
  route(
    {
      summary: "Leave the waiting list (your own entry; an unopened offer is given up)",
      description: "What the entry asked for or held goes to the next in line at once. 409 when no longer in line.",
      auth: "buyer",
      answer: OwnWaitingListEntry,
    },
    async (c, { logins }) => {
      const { database, onMailQueued } = c.get("deps");
      const entry = await leaveEntry(database, {
        loginIds: logins,
        entryId: idParam(c),
        now: now(c),
        language: c.get("language"),
      });
      onMailQueued?.();
      return answer(c, entry);
    },
  ),
);

frontendWaitingListRoutes.get(
  "/offers/:id",
  route(
    {
      summary: "An offer from the waiting list, as its mail's link shows it (404: unknown, or a wrong code)",
      query: WaitingListOfferQuery,
      answer: WaitingListOffer,
    },
    async (c, { query }) => {
      const { database, config } = c.get("deps");
      return answer(
        c,
        await readOffer(database.db, config.secretKey, {
          entryId: idParam(c),
          ...query,
          now: now(c),
          language: c.get("language"),
        }),
      );
    },
  ),
);

frontendWaitingListRoutes.post(
  "/offers/:id/open",
  route(
    {
      summary: "Open an offer from the waiting list into its basket, signed in as its buyer",
      description:
        "The first opening makes the basket holding the offered articles until the offer ends; later ones answer " +
        "the same basket. 409 when the offer lapsed or is no longer open; 404 for a wrong code.",
      auth: "optional",
      body: WaitingListOfferCode,
      answer: OpenedWaitingListOffer,
    },
    async (c, { body }) =>
      answer(c, await openOffer(c.get("deps"), c.get("auth"), { entryId: idParam(c), code: body.code, now: now(c) })),
  ),
);

frontendWaitingListRoutes.post(
  "/offers/:id/decline",
  route(
    {
      summary: "Decline an offer from the waiting list: it goes to the next in line",
      body: WaitingListOfferCode,
      answer: WaitingListOffer,
    },
    async (c, { body }) => {
      const { database, config, onMailQueued } = c.get("deps");
      const offer = await declineOffer(database, config.secretKey, {
        entryId: idParam(c),
        code: body.code,
        now: now(c),
        language: c.get("language"),
      });
      onMailQueued?.();
      return answer(c, offer);
    },
  ),
);
