// What a buyer puts on a basket (`/frontend/…`): its articles and their forms' answers, promotion codes, the
// billing details; and the basket's payments.
import { Empty } from "@ticketing/shared/schemas/common";
import {
  BasketQuery,
  BillingInformationCreate,
  ExtraInfoAnswers,
  PromotionCodeListQuery,
  SelectedNodeAdd,
  SelectedPromotionCodeCreate,
} from "@ticketing/shared/schemas/frontend";
import {
  AppliedPromotionCode,
  BasketDetail,
  BasketItem,
  BillingInformation,
  ItemForms,
  PaymentIntent,
  RemovedSelection,
  SelectedNode,
  SelectedPromotionCode,
} from "@ticketing/shared/schemas/ticket-office";
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { addBasketItem } from "../services/baskets/add-to-basket.ts";
import {
  answerItemForms,
  listBasketItems,
  listBasketPayments,
  removeBasketItem,
  saveBuyerBilling,
} from "../services/baskets/buyer-baskets.ts";
import {
  applyPromotionCode,
  listSelectedPromotionCodes,
  removePromotionCode,
} from "../services/baskets/promotion-codes.ts";
import { cancelBuyerPayment } from "../services/checkout/buyer-payments.ts";

export const selectedNodeRoutes = new Hono<AppEnv>();

selectedNodeRoutes.post(
  "/",
  route(
    {
      summary: "Put an article, with its chosen options, in your basket (opened for you if need be)",
      description:
        "`quantity` (default 1) identical lines at once, all of them or none: 409 when the stock or the basket's " +
        "item maximum cannot take them all. Answers the first line added, with its `basket_id`. Into the basket " +
        "named by `basket_id` (404 unless it is yours), or, given `event_id` instead (and `testing` for the testing " +
        "mode), into your newest open basket on that event, opened when you have none (as `POST /frontend/baskets`): " +
        "opening or reusing your basket and adding is then one call.",
      auth: "buyer",
      body: SelectedNodeAdd,
      answer: SelectedNode,
      status: 201,
    },
    async (c, { logins, body }) =>
      answer(
        c,
        await addBasketItem(c.get("deps").database, {
          loginIds: logins,
          body,
          now: now(c),
          language: c.get("language"),
        }),
        201,
      ),
  ),
);

selectedNodeRoutes.get(
  "/",
  route(
    { summary: "The articles in your basket", auth: "buyer", query: BasketQuery, answer: z.array(BasketItem) },
    async (c, { logins, query }) =>
      answer(c, await listBasketItems(c.get("deps").database.db, logins, query.basketId, c.get("language"))),
  ),
);

selectedNodeRoutes.delete(
  "/:id",
  route(
    { summary: "Take an article, with its options, out of your basket", auth: "buyer", answer: RemovedSelection },
    async (c, { logins }) =>
      answer(c, await removeBasketItem(c.get("deps").database, { loginIds: logins, id: idParam(c), now: now(c) })),
  ),
);

selectedNodeRoutes.put(
  "/:id/extra-infos",
  route(
    {
      summary: "Answer an article's forms (every field, each answer replacing the one before)",
      auth: "buyer",
      body: ExtraInfoAnswers,
      answer: ItemForms,
    },
    async (c, { logins, body }) =>
      answer(
        c,
        await answerItemForms(c.get("deps").database, {
          loginIds: logins,
          itemId: idParam(c),
          body,
          now: now(c),
          language: c.get("language"),
        }),
      ),
  ),
);

export const selectedPromotionCodeRoutes = new Hono<AppEnv>();

selectedPromotionCodeRoutes.get(
  "/",
  route(
    {
      summary: "The promotion codes applied to your basket",
      auth: "buyer",
      query: PromotionCodeListQuery,
      answer: z.array(SelectedPromotionCode),
    },
    async (c, { logins, query }) =>
      answer(c, await listSelectedPromotionCodes(c.get("deps").database.db, logins, query.basketId)),
  ),
);

selectedPromotionCodeRoutes.post(
  "/",
  route(
    {
      summary: "Apply a promotion code of the event to your basket",
      auth: "buyer",
      body: SelectedPromotionCodeCreate,
      answer: AppliedPromotionCode,
      status: 201,
    },
    async (c, { logins, body }) =>
      answer(c, await applyPromotionCode(c.get("deps").database, { loginIds: logins, body, now: now(c) }), 201),
  ),
);

selectedPromotionCodeRoutes.delete(
  "/:id",
  route(
    { summary: "Take a promotion code off your basket", auth: "buyer", answer: RemovedSelection },
    async (c, { logins }) =>
      answer(c, await removePromotionCode(c.get("deps").database, { loginIds: logins, id: idParam(c) })),
  ),
);

export const billingRoutes = new Hono<AppEnv>();

billingRoutes.post(
  "/",
  route(
    {
      summary: "Give your basket's billing details",
      auth: "buyer",
      body: BillingInformationCreate,
      answer: BillingInformation,
      status: 201,
    },
    async (c, { logins, body }) => answer(c, await saveBuyerBilling(c.get("deps").database, logins, body), 201),
  ),
);

export const paymentIntentRoutes = new Hono<AppEnv>();

paymentIntentRoutes.get(
  "/",
  route(
    {
      summary: "Your basket's payments, newest first",
      auth: "buyer",
      query: BasketQuery,
      answer: z.array(PaymentIntent),
    },
    async (c, { logins, query }) =>
      answer(c, await listBasketPayments(c.get("deps").database.db, logins, query.basketId)),
  ),
);

paymentIntentRoutes.post(
  "/:id/cancel",
  route(
    {
      summary: "Cancel your ongoing payment",
      description:
        "Cancelled at the payment provider first; the basket goes back to you. 409 when the payment is no longer " +
        "ongoing, or when the provider could not cancel it (paid meanwhile).",
      auth: "buyer",
      body: Empty,
      answer: BasketDetail,
    },
    async (c, { logins }) =>
      answer(c, await cancelBuyerPayment(c.get("deps"), { loginIds: logins, intentId: idParam(c), now: now(c) })),
  ),
);
