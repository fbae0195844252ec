import { ticketPdfResponse } from "#app/lib/ticket-pdf.server.ts";
import type { Route } from "./+types/route";

/** The order link's tickets in one PDF: no login, the token is the key. */
export async function loader(args: Route.LoaderArgs) {
  return ticketPdfResponse(args, `/frontend/orders/${encodeURIComponent(args.params.token)}/tickets`, {
    orderLink: true,
  });
}
