import { data } from "react-router";
import { ticketPdfResponse } from "#app/lib/ticket-pdf.server.ts";
import type { Route } from "./+types/route";

/** One ticket of the order link's order: no login, the token is the key. */
export async function loader(args: Route.LoaderArgs) {
  const { token, itemId } = args.params;
  if (!/^\d+$/.test(itemId)) throw data(null, { status: 404 });
  return ticketPdfResponse(args, `/frontend/orders/${encodeURIComponent(token)}/tickets/${itemId}`, {
    orderLink: true,
  });
}
