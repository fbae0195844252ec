import { data } from "react-router";
import { ticketPdfResponse } from "#app/lib/ticket-pdf.server.ts";
import type { Route } from "./+types/route";

/** All the tickets of the order in one PDF, a page each: the link of a confirmation mail with too many to attach. */
export async function loader(args: Route.LoaderArgs) {
  const { basketId } = args.params;
  if (!/^\d+$/.test(basketId)) throw data(null, { status: 404 });
  return ticketPdfResponse(args, `/frontend/baskets/${basketId}/tickets`);
}
