// `/events/:id/*` beyond the event itself: its articles, its communication settings, its price preview.
import {
  AddedArticle,
  Article,
  Communication,
  CommunicationUpdate,
  NewArticle,
  PricePreviewQuery,
  PricePreviewRow,
} from "@ticketing/shared/schemas/events";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import {
  addEventArticle,
  getCommunication,
  listEventArticles,
  previewPrices,
  updateCommunication,
} from "../services/event-settings.ts";

/** Mounted at `/events/:id` (events.ts): `idParam` reads the event's id. */
export const eventSettingRoutes = new Hono<AppEnv>();

eventSettingRoutes.get(
  "/articles",
  route(
    { summary: "An event's articles, with price and stock", auth: "user", answer: z.array(Article) },
    async (c, { user }) => answer(c, await listEventArticles(c.get("deps").database.db, user, idParam(c))),
  ),
);

eventSettingRoutes.post(
  "/articles",
  route(
    {
      summary: "Add an article with its price and its own stock",
      auth: "user",
      body: NewArticle,
      answer: AddedArticle,
      status: 201,
    },
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await addEventArticle(database, user, idParam(c), body, config.supportEmail), 201);
    },
  ),
);

eventSettingRoutes.get(
  "/communication",
  route(
    { summary: "An event's confirmation mail, confirmation page and PDF ticket", auth: "user", answer: Communication },
    async (c, { user }) => answer(c, await getCommunication(c.get("deps").database.db, user, idParam(c))),
  ),
);

eventSettingRoutes.put(
  "/communication",
  route(
    {
      summary: "Change an event's communication settings (locked once not a draft)",
      auth: "user",
      body: CommunicationUpdate,
      answer: Communication,
    },
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await updateCommunication(database, user, idParam(c), body, config.supportEmail));
    },
  ),
);

eventSettingRoutes.get(
  "/price-preview",
  route(
    {
      summary: "The prices a visitor with this email and these promotion codes would see",
      auth: "user",
      query: PricePreviewQuery,
      answer: z.array(PricePreviewRow),
    },
    async (c, { user, query }) => answer(c, await previewPrices(c.get("deps").database.db, user, idParam(c), query)),
  ),
);
