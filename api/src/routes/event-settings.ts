// `/events/:id/*` beyond the event itself: its articles, its communication settings (with their previews and
// test mails), its price preview.
import {
  AddedArticle,
  Article,
  Communication,
  CommunicationPreview,
  CommunicationUpdate,
  MailPreview,
  NewArticle,
  PricePreviewQuery,
  PricePreviewRow,
  TestMailRequest,
  TestMailSent,
} from "@ticketing/shared/schemas/events";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context.ts";
import { answer, answerPdf, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import {
  addEventArticle,
  getCommunication,
  listEventArticles,
  previewCommunicationMail,
  previewCommunicationTicket,
  previewPrices,
  sendTestMail,
  updateCommunication,
} from "../services/events/event-settings.ts";

/** Mounted at `/events/:id` (events.ts): `idParam` reads the event's id. */
export const eventSettingRoutes = new Hono<AppEnv>();

eventSettingRoutes.get(
  "/articles",
  route(
    { summary: "An event's articles, with price and stock", auth: "user", scope: "read", answer: z.array(Article) },
    async (c, { user }) => answer(c, await listEventArticles(c.get("deps").database.db, user, idParam(c))),
  ),
);

eventSettingRoutes.post(
  "/articles",
  route(
    {
      summary: "Add an article with its price and its own stock",
      auth: "user",
      scope: "manage",
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
    {
      summary: "An event's confirmation mail, confirmation page and PDF ticket",
      auth: "user",
      scope: "read",
      answer: Communication,
    },
    async (c, { user }) => answer(c, await getCommunication(c.get("deps").database.db, user, idParam(c))),
  ),
);

eventSettingRoutes.put(
  "/communication",
  route(
    {
      summary: "Change an event's communication settings (locked once not a draft)",
      auth: "user",
      scope: "manage",
      body: CommunicationUpdate,
      answer: Communication,
    },
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await updateCommunication(database, user, idParam(c), body, config.supportEmail));
    },
  ),
);

// Previews are POSTs: they carry the form's unsaved texts, which do not fit in an address.
eventSettingRoutes.post(
  "/communication/mail-preview",
  route(
    {
      summary: "A mail as it would be sent (subject, text, html) from unsaved texts and a sample order, in a language",
      auth: "user",
      scope: "read",
      body: CommunicationPreview,
      answer: MailPreview,
    },
    async (c, { user, body }) => answer(c, await previewCommunicationMail(c.get("deps"), user, idParam(c), body)),
  ),
);

eventSettingRoutes.post(
  "/communication/pdf-ticket-preview",
  route(
    {
      summary: "The PDF ticket of a sample order from unsaved texts, in a language (marked as a preview)",
      auth: "user",
      scope: "read",
      body: CommunicationPreview,
      produces: "application/pdf",
    },
    async (c, { user, body }) =>
      answerPdf(c, await previewCommunicationTicket(c.get("deps"), user, idParam(c), body), "ticket-preview.pdf"),
  ),
);

eventSettingRoutes.post(
  "/communication/test-mail",
  route(
    {
      summary: "Send a mail with the saved texts and a sample order to the signed-in user, marked as a test",
      auth: "user",
      body: TestMailRequest,
      answer: TestMailSent,
      status: 201,
    },
    async (c, { user, body }) => answer(c, await sendTestMail(c.get("deps"), user, idParam(c), body), 201),
  ),
);

eventSettingRoutes.get(
  "/price-preview",
  route(
    {
      summary: "The prices a visitor with this email and these promotion codes would see",
      auth: "user",
      scope: "read",
      query: PricePreviewQuery,
      answer: z.array(PricePreviewRow),
    },
    async (c, { user, query }) => answer(c, await previewPrices(c.get("deps").database.db, user, idParam(c), query)),
  ),
);
