import { data } from "react-router";
import { ticketPdfResponse } from "#app/lib/ticket-pdf.server.ts";
import type { Route } from "./+types/route";

/** One of the visitor's invoices (or credit notes) as a PDF, in the language they ordered in. */
export async function loader(args: Route.LoaderArgs) {
  const { invoiceId } = args.params;
  if (!/^\d+$/.test(invoiceId)) throw data(null, { status: 404 });
  return ticketPdfResponse(args, `/frontend/invoices/${invoiceId}/pdf`);
}
