import { data } from "react-router";
import { ticketPdfResponse } from "../lib/ticket-pdf.server";
import type { Route } from "./+types/tickets.$path.baskets.$basketId.tickets";

/** All the tickets of the order in one PDF, a page each: the link of a confirmation mail with too many to attach. */
export async function loader(args: Route.LoaderArgs) {
  const { basketId } = args.params;
  if (!/^\d+$/.test(basketId)) throw data(null, { status: 404 });
  return ticketPdfResponse(args, `/frontend/baskets/${basketId}/tickets`);
}
