// The buyer's invoices (`/frontend/invoices`): those of one of their baskets, and each one's PDF (404 for anyone
// else's basket), in the language they ordered in unless asked otherwise.
import { BasketQuery } from "@ticketing/shared/schemas/frontend";
import { InvoicePdfQuery, InvoiceRow } from "@ticketing/shared/schemas/invoices";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context.ts";
import { answer, answerPdf, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { listBuyerInvoices, renderBuyerInvoice } from "../services/invoices/invoice-views.ts";

export const buyerInvoiceRoutes = new Hono<AppEnv>();

buyerInvoiceRoutes.get(
  "/",
  route(
    {
      summary: "Your basket's invoices and credit notes, oldest first",
      auth: "buyer",
      query: BasketQuery,
      answer: z.array(InvoiceRow),
    },
    async (c, { logins, query }) =>
      answer(c, await listBuyerInvoices(c.get("deps").database.db, logins, query.basketId)),
  ),
);

buyerInvoiceRoutes.get(
  "/:id/pdf",
  route(
    {
      summary: "One of your invoices (or credit notes) as a PDF",
      description: "`language`: `en` or `fr`; the language you ordered in by default.",
      auth: "buyer",
      query: InvoicePdfQuery,
      produces: "application/pdf",
    },
    async (c, { logins, query }) => {
      const { pdf, fileName } = await renderBuyerInvoice(c.get("deps").database.db, logins, idParam(c), query.language);
      return answerPdf(c, pdf, fileName);
    },
  ),
);
