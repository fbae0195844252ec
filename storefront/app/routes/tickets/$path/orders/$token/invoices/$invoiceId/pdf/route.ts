import { data } from "react-router";
import { ticketPdfResponse } from "#app/lib/ticket-pdf.server.ts";
import type { Route } from "./+types/route";

/** An invoice or credit note of the order link's order, in the language it was ordered in. */
export async function loader(args: Route.LoaderArgs) {
  const { token, invoiceId } = args.params;
  if (!/^\d+$/.test(invoiceId)) throw data(null, { status: 404 });
  return ticketPdfResponse(args, `/frontend/orders/${encodeURIComponent(token)}/invoices/${invoiceId}/pdf`, {
    orderLink: true,
  });
}
