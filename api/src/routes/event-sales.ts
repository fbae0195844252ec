// `/events/:id/stocks` and `/events/:id/dashboard`: how an event's sales stand (docs/specification.md §2.2, §3), real
// sales or, with `preview=true`, testing ones only.
import { Dashboard, PreviewQuery, StocksTable } from "@ticketing/shared/schemas/sales";
import { Hono } from "hono";
import { type AppEnv, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { stocksTable } from "../services/catalogue/stocks.ts";
import { eventDashboard } from "../services/sales/dashboard.ts";

/** Mounted at `/events/:id` (app.ts): `idParam` reads the event's id. */
export const eventSalesRoutes = new Hono<AppEnv>();

eventSalesRoutes.get(
  "/stocks",
  route(
    {
      summary: "An event's stocks table: each article's lines by basket status beside its stock",
      description:
        "Members and owners of the event's unit, superusers. One row per article, in tree order: its lines in new, " +
        "paying, validated baskets and refunded, and its stock (the tightest, as the ticket office shows it; null " +
        "when unlimited). `preview=true` counts testing baskets and the testing stock instead.",
      auth: "user",
      scope: "read",
      query: PreviewQuery,
      answer: StocksTable,
    },
    async (c, { user, query }) =>
      answer(c, await stocksTable(c.get("deps").database.db, user, idParam(c), query.preview)),
  ),
);

eventSalesRoutes.get(
  "/dashboard",
  route(
    {
      summary: "An event's dashboard: sales, refunds, baskets, and sales per day and per article",
      description:
        "Members and owners of the event's unit, superusers. Amounts in cents of CHF. `preview=true` counts testing " +
        "baskets and invoices instead of real ones.",
      auth: "user",
      scope: "read",
      query: PreviewQuery,
      answer: Dashboard,
    },
    async (c, { user, query }) =>
      answer(c, await eventDashboard(c.get("deps").database.db, user, idParam(c), query.preview, now(c))),
  ),
);
