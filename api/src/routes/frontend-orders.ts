// The order link's API (`/frontend/orders/:token`, services/order-links.ts): the order, its tickets and invoices
// for whoever holds the mail's signed link, without a login; 404 for a tampered or expired token.
import { InvoicePdfQuery } from "@ticketing/shared/schemas/invoices";
import { OrderView } from "@ticketing/shared/schemas/orders";
import { Hono } from "hono";
import { type AppEnv, type Ctx, now } from "../context.ts";
import { answer, answerPdf, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import {
  renderOrderInvoice,
  renderOrderTicket,
  showOrder,
  streamOrderTickets,
} from "../services/tickets/order-links.ts";

export const orderLinkRoutes = new Hono<AppEnv>();

/** The link's token, as the path carries it (checked by the service). */
const tokenOf = (c: Ctx) => c.req.param("token") ?? "";

const DESCRIPTION =
  "No login: the token of the order link (confirmation mail) is the key. 404 when it was tampered with or has expired.";

orderLinkRoutes.get(
  "/:token",
  route(
    {
      summary: "The order an order link opens: its articles, total, status and invoices",
      description: DESCRIPTION,
      answer: OrderView,
    },
    async (c) => answer(c, await showOrder(c.get("deps"), tokenOf(c), now(c), c.get("language"))),
  ),
);

orderLinkRoutes.get(
  "/:token/tickets",
  route(
    {
      summary: "The order's tickets in one PDF, once it is validated",
      description: DESCRIPTION,
      produces: "application/pdf",
    },
    async (c) => {
      const { pdf, fileName } = await streamOrderTickets(c.get("deps"), {
        token: tokenOf(c),
        language: c.get("language"),
        now: now(c),
      });
      return answerPdf(c, pdf, fileName);
    },
  ),
);

orderLinkRoutes.get(
  "/:token/tickets/:itemId",
  route(
    {
      summary: "One article's ticket of the order, once it is validated",
      description: DESCRIPTION,
      produces: "application/pdf",
    },
    async (c) => {
      const itemId = idParam(c, "itemId");
      const pdf = await renderOrderTicket(c.get("deps"), {
        token: tokenOf(c),
        itemId,
        language: c.get("language"),
        now: now(c),
      });
      return answerPdf(c, pdf, `ticket-${itemId}.pdf`);
    },
  ),
);

orderLinkRoutes.get(
  "/:token/invoices/:id/pdf",
  route(
    {
      summary: "An invoice or credit note of the order as a PDF",
      description: `${DESCRIPTION} \`language\`: \`en\` or \`fr\`; the language of the order by default.`,
      query: InvoicePdfQuery,
      produces: "application/pdf",
    },
    async (c, { query }) => {
      const { pdf, fileName } = await renderOrderInvoice(c.get("deps"), {
        token: tokenOf(c),
        invoiceId: idParam(c),
        language: query.language,
        now: now(c),
      });
      return answerPdf(c, pdf, fileName);
    },
  ),
);
