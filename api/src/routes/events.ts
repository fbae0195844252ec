// `/events/*`: the back office's events and their moderation, and the ticket office's public infos; an event's
// articles, communication and price preview are in event-settings.ts, under `/events/:id`.
import { Empty } from "@ticketing/shared/schemas/common";
import {
  Event,
  EventCreate,
  EventUpdate,
  ModerationChanges,
  PublicInfos,
  PublicInfosQuery,
} from "@ticketing/shared/schemas/events";
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { answerList } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
import { EVENT_LIST, listVisibleEvents } from "../services/events/event-list.ts";
import { createEventInUnit, editEvent, getEvent, moderateEvent, removeEvent } from "../services/events/events.ts";
import { findPublicInfos } from "../services/events/public-infos.ts";
import { eventSettingRoutes } from "./event-settings.ts";

export const eventRoutes = new Hono<AppEnv>();

eventRoutes.get(
  "/public-infos",
  route(
    {
      summary: "The ticket office's view of every public event, or of the one at `path`",
      description: "No token needed; `testing=true` previews any event of your units (docs/specification.md §2.3).",
      auth: "optional",
      query: PublicInfosQuery,
      answer: z.union([PublicInfos, z.array(PublicInfos)]),
    },
    async (c, { query }) =>
      answer(c, await findPublicInfos(c.get("deps").database.db, c.get("auth"), query, now(c), c.get("language"))),
  ),
);

eventRoutes.get(
  "/",
  route(
    { summary: "The events of your units", auth: "user", scope: "read", list: EVENT_LIST, answer: Event },
    async (c, { user, list }) => {
      const { database, config } = c.get("deps");
      return answerList(c, "events", list, await listVisibleEvents(database.db, user, list, config.publicUrl, now(c)));
    },
  ),
);

eventRoutes.post(
  "/",
  route(
    {
      summary: "Create an event in one of your units",
      auth: "user",
      scope: "manage",
      body: EventCreate,
      answer: Event,
      status: 201,
    },
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await createEventInUnit(database, user, body, config.publicUrl), 201);
    },
  ),
);

eventRoutes.get(
  "/:id",
  route({ summary: "An event of your units", auth: "user", scope: "read", answer: Event }, async (c, { user }) => {
    const { database, config } = c.get("deps");
    return answer(c, await getEvent(database.db, user, idParam(c), config.publicUrl));
  }),
);

eventRoutes.put(
  "/:id",
  route(
    {
      summary: "Change an event (locked once not a draft, but for its status)",
      auth: "user",
      scope: "manage",
      body: EventUpdate,
      answer: Event,
    },
    async (c, { user, body }) => {
      const { database, config, onWebhookQueued } = c.get("deps");
      const edited = await editEvent(database, user, idParam(c), body, config);
      if (body.status) onWebhookQueued?.();
      return answer(c, edited);
    },
  ),
);

eventRoutes.delete(
  "/:id",
  route({ summary: "Delete a draft event", auth: "user", scope: "manage", answer: Event }, async (c, { user }) => {
    const { database, config } = c.get("deps");
    return answer(c, await removeEvent(database, user, idParam(c), config.publicUrl));
  }),
);

eventRoutes.post(
  "/:id/moderation/request",
  route(
    { summary: "Ask the moderators to approve an event", auth: "user", scope: "manage", body: Empty, answer: Event },
    async (c, { user }) => {
      const { database, config } = c.get("deps");
      return answer(c, await moderateEvent(database, user, idParam(c), "request", null, config.publicUrl));
    },
  ),
);

eventRoutes.post(
  "/:id/moderation/approve",
  route({ summary: "Approve an event (superusers)", auth: "user", body: Empty, answer: Event }, async (c, { user }) => {
    const { database, config } = c.get("deps");
    return answer(c, await moderateEvent(database, user, idParam(c), "approve", null, config.publicUrl));
  }),
);

eventRoutes.post(
  "/:id/moderation/request-changes",
  route(
    {
      summary: "Ask an event's organisers for changes (superusers)",
      auth: "user",
      body: ModerationChanges,
      answer: Event,
    },
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      const { description } = body;
      return answer(
        c,
        await moderateEvent(database, user, idParam(c), "requestChanges", description, config.publicUrl),
      );
    },
  ),
);

eventRoutes.route("/:id", eventSettingRoutes);
