import { data } from "react-router";
import { TicketOffice } from "../lib/ticket-office.server";
import type { Route } from "./+types/tickets.$path.baskets.$basketId.tickets.$itemId";

/** Streams one article's PDF ticket from the API, fetched with the visitor's login. */
export async function loader(args: Route.LoaderArgs) {
  const { basketId, itemId } = args.params;
  if (!/^\d+$/.test(basketId) || !/^\d+$/.test(itemId)) throw data(null, { status: 404 });
  const office = await TicketOffice.open(args);
  const api = await office.requireLoginApi();
  const pdf = await api.raw(`/frontend/baskets/${basketId}/tickets/${itemId}`, "application/pdf");
  const headers = await office.headers();
  headers.set("Content-Type", "application/pdf");
  headers.set("Content-Disposition", `attachment; filename=ticket-${itemId}.pdf`);
  headers.set("Cache-Control", "private, no-store");
  return new Response(pdf.body, { headers });
}
