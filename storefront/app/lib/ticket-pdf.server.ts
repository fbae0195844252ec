// PDF tickets and invoices for the visitor: fetched from the API with their login (the API answers 404 for a basket
// that is not theirs and 409 for one not paid yet), or with an order link's token, and streamed through, never
// kept in a cache. A refusal is the storefront's own error page (HTML), as for any page, not the API's JSON.
import { type AppLoadContext, data } from "react-router";
import { ApiError, refusedStatus } from "./api.server";
import { TicketOffice } from "./ticket-office.server";

declare module "react-router" {
  interface AppLoadContext {
    /**
     * Set by the product server (api/src/product.ts): the storefront's error page for `status`, rendered for the
     * current visitor. A resource route (a download) has no error boundary of its own to render it.
     */
    renderErrorPage?: (status: number) => Promise<Response>;
    /** The status the catch-all route answers when it renders that error page. */
    errorStatus?: number;
  }
}

interface Args {
  request: Request;
  params: { path?: string };
  context: AppLoadContext;
}

/**
 * `apiPath` is one of `/frontend/baskets/:id/tickets` (the whole order), `/frontend/baskets/:id/tickets/:itemId`,
 * `/frontend/invoices/:id/pdf` (an invoice or credit note), fetched with the visitor's login, or, with `orderLink`,
 * the same under `/frontend/orders/:token`, fetched without one.
 */
export async function ticketPdfResponse(args: Args, apiPath: string, { orderLink = false } = {}): Promise<Response> {
  const office = await TicketOffice.open(args);
  const api = orderLink ? office.api : await office.requireLoginApi();
  let pdf: Response;
  try {
    pdf = await api.raw(apiPath, "application/pdf");
  } catch (error) {
    const status = refusedStatus(error);
    if (status === null) throw error;
    // The storefront deployed on its own has no page to render here: the refusal, with the API's messages.
    if (!args.context.renderErrorPage)
      throw error instanceof ApiError ? data({ errors: error.errors }, { status }) : error;
    const page = await args.context.renderErrorPage(status);
    const headers = new Headers(page.headers);
    for (const cookie of (await office.headers()).getSetCookie()) headers.append("Set-Cookie", cookie);
    return new Response(page.body, { status: page.status, headers });
  }
  const headers = await office.headers();
  headers.set("Content-Type", "application/pdf");
  headers.set("Content-Disposition", pdf.headers.get("Content-Disposition") ?? "attachment");
  headers.set("Cache-Control", "private, no-store");
  return new Response(pdf.body, { headers });
}
