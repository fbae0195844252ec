import { data } from "react-router";
import { ticketPdfResponse } from "#app/lib/ticket-pdf.server.ts";
import type { Route } from "./+types/route";

/** One article's PDF ticket. */
export async function loader(args: Route.LoaderArgs) {
  const { basketId, itemId } = args.params;
  if (!/^\d+$/.test(basketId) || !/^\d+$/.test(itemId)) throw data(null, { status: 404 });
  return ticketPdfResponse(args, `/frontend/baskets/${basketId}/tickets/${itemId}`);
}
