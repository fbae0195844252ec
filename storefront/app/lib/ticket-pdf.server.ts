// PDF tickets for the visitor: fetched from the API with their login (the API answers 404 for a basket that
// is not theirs and 409 for one not paid yet) and streamed through, never kept in a cache.
import { type AppLoadContext, data } from "react-router";
import { ApiError } from "./api.server";
import { TicketOffice } from "./ticket-office.server";

interface Args {
  request: Request;
  params: { path?: string };
  context: AppLoadContext;
}

/**
 * `apiPath` is one of `/frontend/baskets/:id/tickets` (the whole order), `/frontend/baskets/:id/tickets/:itemId` and
 * `/frontend/invoices/:id/pdf` (an invoice or credit note).
 */
export async function ticketPdfResponse(args: Args, apiPath: string): Promise<Response> {
  const office = await TicketOffice.open(args);
  const api = await office.requireLoginApi();
  const pdf = await api.raw(apiPath, "application/pdf").catch((error: unknown) => {
    // Not paid (yet) or refunded: the error page with the API's status, not a server error.
    if (error instanceof ApiError) throw data({ errors: error.errors }, { status: error.status });
    throw error;
  });
  const headers = await office.headers();
  headers.set("Content-Type", "application/pdf");
  headers.set("Content-Disposition", pdf.headers.get("Content-Disposition") ?? "attachment");
  headers.set("Cache-Control", "private, no-store");
  return new Response(pdf.body, { headers });
}
