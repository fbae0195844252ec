import { data } from "react-router";
import { ticketPdfResponse } from "../lib/ticket-pdf.server";
import type { Route } from "./+types/tickets.$path.baskets.$basketId.tickets.$itemId";

/** One article's PDF ticket. */
export async function loader(args: Route.LoaderArgs) {
  const { basketId, itemId } = args.params;
  if (!/^\d+$/.test(basketId) || !/^\d+$/.test(itemId)) throw data(null, { status: 404 });
  return ticketPdfResponse(args, `/frontend/baskets/${basketId}/tickets/${itemId}`);
}
