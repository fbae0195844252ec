import type { OrderView } from "@ticketing/shared/schemas/orders";
import { data } from "react-router";
import { downloadableInvoices } from "#app/lib/invoices.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

/**
 * The order link of the confirmation mail: the order on any device, without a ticket-office login; the signed
 * token is the key (the API answers 404 for a tampered or expired one: the 404 page).
 */
export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  const { token } = args.params;
  const order = await office.api.get<OrderView>(`/frontend/orders/${encodeURIComponent(token)}`);
  // A link opens its order in its own event's ticket office only (the preview one for a testing order).
  if (order.event.id !== office.event.id || order.basket.testing !== office.testing) throw data(null, { status: 404 });
  return office.data({ order: { ...order, invoices: downloadableInvoices(order.invoices) }, token });
}
