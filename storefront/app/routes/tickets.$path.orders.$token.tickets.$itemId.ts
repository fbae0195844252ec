import { data } from "react-router";
import { ticketPdfResponse } from "../lib/ticket-pdf.server";
import type { Route } from "./+types/tickets.$path.orders.$token.tickets.$itemId";

/** One ticket of the order link's order: no login, the token is the key. */
export async function loader(args: Route.LoaderArgs) {
  const { token, itemId } = args.params;
  if (!/^\d+$/.test(itemId)) throw data(null, { status: 404 });
  return ticketPdfResponse(args, `/frontend/orders/${encodeURIComponent(token)}/tickets/${itemId}`, {
    orderLink: true,
  });
}
