// Back-office sales: the baskets of the events the user may see, and the point of sale's invoices.
import { Empty } from "@ticketing/shared/schemas/common";
import { InvoiceDetail, InvoicePdfQuery, InvoiceRow } from "@ticketing/shared/schemas/invoices";
import {
  Basket,
  BasketDetail,
  BasketTicketsQuery,
  ConfirmationResent,
  InvoicePaid,
} from "@ticketing/shared/schemas/sales";
import { Hono } from "hono";
import { type AppEnv, now } from "../context.ts";
import { answer, answerPdf, idParam } from "../lib/http.ts";
import { answerList } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
import { resendConfirmation, streamStaffTickets } from "../services/baskets/basket-actions.ts";
import { getInvoice, INVOICE_LIST, listInvoices, renderStaffInvoice } from "../services/invoices/invoice-views.ts";
import { markInvoicePaid } from "../services/invoices/invoices.ts";
import { BASKET_LIST, getBasket, listBaskets } from "../services/sales/sales.ts";

export const basketRoutes = new Hono<AppEnv>();

basketRoutes.get(
  "/",
  route(
    {
      summary: "The baskets of the events you may see (testing baskets with `preview=true`)",
      description:
        "Filters: `event_id` (or `event`), `status`, `id`, `q` (reference, buyer's names or email), " +
        "`created_from` / `created_to` (a date, the whole day, or a moment), `preview`.",
      auth: "user",
      scope: "read",
      list: BASKET_LIST,
      answer: Basket,
    },
    async (c, { user, list }) =>
      answerList(c, "baskets", list, await listBaskets(c.get("deps").database.db, user, list)),
  ),
);

basketRoutes.get(
  "/:id",
  route(
    { summary: "A basket, with its promotion codes and payments", auth: "user", scope: "read", answer: BasketDetail },
    async (c, { user }) => {
      return answer(c, await getBasket(c.get("deps").database.db, user, idParam(c)));
    },
  ),
);

basketRoutes.post(
  "/:id/confirmation-mail",
  route(
    {
      summary: "Send a paid order's confirmation again, to its billing address",
      description:
        "Members and owners of the event's unit (and superusers). Queues the order confirmation again, in the " +
        "buyer's language, and answers the queued mail. 409 when the order is not paid (validated) or has no " +
        "billing information.",
      auth: "user",
      body: Empty,
      answer: ConfirmationResent,
      status: 201,
    },
    async (c, { user }) => answer(c, await resendConfirmation(c.get("deps"), user, idParam(c)), 201),
  ),
);

basketRoutes.get(
  "/:id/tickets",
  route(
    {
      summary: "A paid order's valid tickets in one PDF, a page per article still held",
      description:
        "`language`: `en` or `fr`; the buyer's by default. 409 when no ticket is valid (not paid, refunded).",
      auth: "user",
      scope: "read",
      query: BasketTicketsQuery,
      produces: "application/pdf",
    },
    async (c, { user, query }) => {
      const { pdf, fileName } = await streamStaffTickets(c.get("deps"), user, idParam(c), query.language);
      return answerPdf(c, pdf, fileName);
    },
  ),
);

export const invoiceRoutes = new Hono<AppEnv>();

invoiceRoutes.get(
  "/",
  route(
    {
      summary: "The invoices and credit notes of the events you may see (testing ones with `preview=true`)",
      description:
        "Filters: `event_id` (or `event`), `basket_id` (or `basket`), `status` (paid, pending, cancelled), `id`, `preview`.",
      auth: "user",
      scope: "read",
      list: INVOICE_LIST,
      answer: InvoiceRow,
    },
    async (c, { user, list }) =>
      answerList(c, "invoices", list, await listInvoices(c.get("deps").database.db, user, list)),
  ),
);

invoiceRoutes.get(
  "/:id",
  route(
    {
      summary: "An invoice, with its lines, billing, related invoices and payments",
      auth: "user",
      scope: "read",
      answer: InvoiceDetail,
    },
    async (c, { user }) => answer(c, await getInvoice(c.get("deps").database.db, user, idParam(c))),
  ),
);

invoiceRoutes.get(
  "/:id/pdf",
  route(
    {
      summary: "An invoice (or credit note) as a PDF",
      description: "`language`: `en` or `fr`; the buyer's by default.",
      auth: "user",
      scope: "read",
      query: InvoicePdfQuery,
      produces: "application/pdf",
    },
    async (c, { user, query }) => {
      const { pdf, fileName } = await renderStaffInvoice(c.get("deps").database.db, user, idParam(c), query.language);
      return answerPdf(c, pdf, fileName);
    },
  ),
);

invoiceRoutes.post(
  "/:id/mark-paid",
  route(
    {
      summary: "Mark a point-of-sale invoice paid once the buyer paid on site",
      auth: "user",
      body: Empty,
      answer: InvoicePaid,
    },
    async (c, { user }) => answer(c, await markInvoicePaid(c.get("deps"), user, idParam(c), now(c))),
  ),
);
