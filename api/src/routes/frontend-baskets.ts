// The buyer's baskets (`/frontend/baskets`): open one, see it, order it, answer its forms, download its tickets.
import { BasketCreate, BasketListQuery, CheckoutRequest } from "@ticketing/shared/schemas/frontend";
import {
  Basket,
  BasketDetail,
  CheckoutResult,
  HoldAgainResult,
  ItemForms,
} from "@ticketing/shared/schemas/ticket-office";
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, now, visitOrigin } from "../context.ts";
import { answer, answerPdf, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import {
  checkoutBasket,
  holdBuyerBasketAgain,
  listBasketForms,
  listBuyerBaskets,
  openBasket,
  readBuyerBasket,
} from "../services/baskets/buyer-baskets.ts";
import { renderBuyerTicket, streamBuyerTickets } from "../services/tickets/ticket-downloads.ts";

export const buyerBasketRoutes = new Hono<AppEnv>();

buyerBasketRoutes.get(
  "/",
  route(
    { summary: "Your baskets, newest first", auth: "buyer", query: BasketListQuery, answer: z.array(Basket) },
    async (c, { logins, query }) =>
      answer(c, await listBuyerBaskets(c.get("deps").database.db, logins, query, c.get("language"))),
  ),
);

buyerBasketRoutes.post(
  "/",
  route(
    {
      summary: "Your login's open basket on the event, opened when it has none",
      description: "One open basket per login and event: a second call answers the same basket.",
      auth: "buyer",
      body: BasketCreate,
      answer: BasketDetail,
      status: 201,
    },
    async (c, { logins, body }) =>
      answer(
        c,
        await openBasket(c.get("deps"), { loginIds: logins, body, now: now(c), language: c.get("language") }),
        201,
      ),
  ),
);

buyerBasketRoutes.get(
  "/:id",
  route(
    {
      summary: "One of your baskets",
      description: "A basket read after its reservation time is expired at once: its articles move to expired_items.",
      auth: "buyer",
      answer: BasketDetail,
    },
    async (c, { logins }) =>
      answer(
        c,
        await readBuyerBasket(c.get("deps").database, {
          loginIds: logins,
          basketId: idParam(c),
          now: now(c),
          language: c.get("language"),
        }),
      ),
  ),
);

buyerBasketRoutes.post(
  "/:id/hold-again",
  route(
    {
      summary: "Renew the basket's hold, and hold its expired articles again where the stock and caps allow",
      description:
        "The hold then lasts the event's reservation time from now; at most the event's max_hold_renewals times " +
        "per basket (409 after; the basket says hold_renewals_left). Each expired article all or nothing; those " +
        "that cannot be held (sold out, no longer offered, over the basket's limits or the buyer's caps) are " +
        "released for good and listed as unavailable.",
      auth: "buyer",
      answer: HoldAgainResult,
    },
    async (c, { logins }) =>
      answer(
        c,
        await holdBuyerBasketAgain(c.get("deps").database, {
          loginIds: logins,
          basketId: idParam(c),
          now: now(c),
          language: c.get("language"),
        }),
      ),
  ),
);

buyerBasketRoutes.post(
  "/:id/checkout",
  route(
    {
      summary: "Order the basket: a payment to make, or a free order validated at once",
      description:
        "The payment page and the provider's way back to the ticket office are on the caller's `Origin` when it is " +
        "this site's (the request's own host, or PUBLIC_URL's), else on PUBLIC_URL.",
      auth: "buyer",
      body: CheckoutRequest,
      answer: CheckoutResult,
    },
    async (c, { logins, body }) =>
      answer(
        c,
        await checkoutBasket(c.get("deps"), {
          loginIds: logins,
          basketId: idParam(c),
          body,
          language: c.get("language"),
          siteUrl: visitOrigin(c),
          now: now(c),
        }),
      ),
  ),
);

buyerBasketRoutes.get(
  "/:id/forms",
  route(
    {
      summary: "The forms of each article in the basket, with the answers given",
      auth: "buyer",
      answer: z.array(ItemForms),
    },
    async (c, { logins }) =>
      answer(c, await listBasketForms(c.get("deps").database.db, logins, idParam(c), c.get("language"))),
  ),
);

buyerBasketRoutes.get(
  "/:id/tickets/:itemId",
  route(
    { summary: "One article's ticket, once the order is validated", auth: "buyer", produces: "application/pdf" },
    async (c, { logins }) => {
      const itemId = idParam(c, "itemId");
      const pdf = await renderBuyerTicket(c.get("deps"), {
        loginIds: logins,
        basketId: idParam(c),
        itemId,
        language: c.get("language"),
      });
      return answerPdf(c, pdf, `ticket-${itemId}.pdf`);
    },
  ),
);

/** The basket's tickets in one PDF, a page each: what a large order downloads instead of a mail attachment. */
buyerBasketRoutes.get(
  "/:id/tickets",
  route(
    { summary: "The order's tickets in one PDF, once it is validated", auth: "buyer", produces: "application/pdf" },
    async (c, { logins }) => {
      const { pdf, fileName } = await streamBuyerTickets(c.get("deps"), {
        loginIds: logins,
        basketId: idParam(c),
        language: c.get("language"),
      });
      return answerPdf(c, pdf, fileName);
    },
  ),
);
