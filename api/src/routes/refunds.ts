// Back-office refunds (docs/design.md §4 "Payments"): a paid basket, whole or chosen articles, paid back through the
// module that took the money. Mounted at /baskets beside the sales routes.
import { RefundMade, RefundRequest } from "@ticketing/shared/schemas/sales";
import { Hono } from "hono";
import { type AppEnv, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { refundBasket } from "../services/invoices/refunds.ts";

export const refundRoutes = new Hono<AppEnv>();

refundRoutes.post(
  "/:id/refunds",
  route(
    {
      summary: "Refund a paid basket: the whole basket, or chosen articles with their options",
      description:
        "Members and owners of the event's unit (and superusers). Without `item_ids`, every article still held. " +
        "The money goes back through the module that took it (Stripe: to the card; point of sale: in cash; demo: " +
        "nothing moves); the answer is the credit note, a negative invoice related to the one paid. 409 when the " +
        "basket is not paid, nothing is left to refund, an article is already refunded (or being refunded) or the " +
        "refund would exceed what is left of the payment; 502 when the provider could not pay back (nothing changed).",
      auth: "user",
      body: RefundRequest,
      answer: RefundMade,
      status: 201,
    },
    async (c, { user, body }) => answer(c, await refundBasket(c.get("deps"), user, idParam(c), body, now(c)), 201),
  ),
);
