import { ticketPdfResponse } from "../lib/ticket-pdf.server";
import type { Route } from "./+types/tickets.$path.orders.$token.tickets";

/** The order link's tickets in one PDF: no login, the token is the key. */
export async function loader(args: Route.LoaderArgs) {
  return ticketPdfResponse(args, `/frontend/orders/${encodeURIComponent(args.params.token)}/tickets`, {
    orderLink: true,
  });
}
