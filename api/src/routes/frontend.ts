// The ticket office (`/frontend/…`, docs/design.md §3): an event's pages for anyone, and the buyer's baskets, each call
// on a basket checked to be the caller's (services/buyer-baskets.ts).
import { VisitorTreeQuery } from "@ticketing/shared/schemas/frontend";
import { ConfirmationPage, PointOfSale, Tree } from "@ticketing/shared/schemas/ticket-office";
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { listPointsOfSale, showConfirmationPage, showVisitorTree } from "../services/events/event-pages.ts";
import { buyerBasketRoutes } from "./frontend-baskets.ts";
import { buyerInvoiceRoutes } from "./frontend-invoices.ts";
import {
  billingRoutes,
  paymentIntentRoutes,
  selectedNodeRoutes,
  selectedPromotionCodeRoutes,
} from "./frontend-selections.ts";
import { buyerWaitingRoomRoutes } from "./waiting-room.ts";

const eventPageRoutes = new Hono<AppEnv>();

eventPageRoutes.get(
  "/:id/tree",
  route(
    {
      summary: "The event's tree as the visitor sees it, priced for them (the testing tree: testing logins only)",
      auth: "optional",
      query: VisitorTreeQuery,
      answer: Tree,
    },
    // Written as JSON by the service, already snake_case: the tree is too large to convert on every request.
    async (c, { query }) =>
      c.body(
        await showVisitorTree(c.get("deps").database.db, {
          eventId: idParam(c),
          loginIds: c.get("auth")?.frontendLoginIds ?? [],
          query,
          now: now(c),
          language: c.get("language"),
        }),
        200,
        { "Content-Type": "application/json" },
      ),
  ),
);

eventPageRoutes.get(
  "/:id/points-of-sale",
  route({ summary: "Where the event's baskets can be paid in person", answer: z.array(PointOfSale) }, async (c) =>
    answer(c, await listPointsOfSale(c.get("deps").database.db, idParam(c), c.get("language"))),
  ),
);

eventPageRoutes.get(
  "/:id/confirmation-page",
  route(
    {
      summary: "What the confirmation page shows after an order: a text in the caller's language, or a page to go to",
      answer: ConfirmationPage,
    },
    async (c) => answer(c, await showConfirmationPage(c.get("deps").database.db, idParam(c), c.get("language"))),
  ),
);

export const frontendRoutes = new Hono<AppEnv>()
  .route("/events", eventPageRoutes)
  .route("/baskets", buyerBasketRoutes)
  .route("/selected-nodes", selectedNodeRoutes)
  .route("/selected-promotion-codes", selectedPromotionCodeRoutes)
  .route("/billing-information", billingRoutes)
  .route("/payment-intents", paymentIntentRoutes)
  .route("/invoices", buyerInvoiceRoutes)
  .route("/waiting-room", buyerWaitingRoomRoutes);
