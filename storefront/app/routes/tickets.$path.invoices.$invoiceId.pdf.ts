import { data } from "react-router";
import { ticketPdfResponse } from "../lib/ticket-pdf.server";
import type { Route } from "./+types/tickets.$path.invoices.$invoiceId.pdf";

/** One of the visitor's invoices (or credit notes) as a PDF, in the language they ordered in. */
export async function loader(args: Route.LoaderArgs) {
  const { invoiceId } = args.params;
  if (!/^\d+$/.test(invoiceId)) throw data(null, { status: 404 });
  return ticketPdfResponse(args, `/frontend/invoices/${invoiceId}/pdf`);
}
