import { data } from "react-router";
import { ticketPdfResponse } from "../lib/ticket-pdf.server";
import type { Route } from "./+types/tickets.$path.orders.$token.invoices.$invoiceId.pdf";

/** An invoice or credit note of the order link's order, in the language it was ordered in. */
export async function loader(args: Route.LoaderArgs) {
  const { token, invoiceId } = args.params;
  if (!/^\d+$/.test(invoiceId)) throw data(null, { status: 404 });
  return ticketPdfResponse(args, `/frontend/orders/${encodeURIComponent(token)}/invoices/${invoiceId}/pdf`, {
    orderLink: true,
  });
}
