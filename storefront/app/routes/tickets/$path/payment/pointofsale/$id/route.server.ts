import type { PointOfSale } from "@ticketing/shared/schemas/ticket-office";
import { data } from "react-router";
import { wizardRedirect } from "#app/lib/basket-rules.ts";
import { loadOpenBasket } from "#app/lib/baskets.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

/**
 * docs/design.md §4 "Payments": the buyer pays on site, quoting the basket's reference; staff then mark the invoice
 * paid and the order is confirmed (this page then leads to completion).
 */
export async function loader(args: Route.LoaderArgs) {
  // docs/specification.md §5: a missing (or malformed) payment id gives 404.
  if (!/^\d+$/.test(args.params.id)) throw data(null, { status: 404 });
  const office = await TicketOffice.open(args);
  const api = await office.requireLoginApi();
  const { basket, newestIsCompleted } = await loadOpenBasket(office, api);
  // docs/specification.md §2.3: an empty or missing basket goes back to buy; a paid one to completion.
  const target = wizardRedirect(basket, { step: "payment-method", newestIsCompleted });
  if (target || !basket) throw await office.redirect(office.href(target ?? "buy"));
  const intent = basket.paymentIntents.find(
    (candidate) => candidate.id === Number(args.params.id) && candidate.moduleKey === "point_of_sale",
  );
  if (!intent) throw data(null, { status: 404 });
  // A payment that is over (cancelled by staff) leaves the buyer to choose again.
  if (!intent.isOngoing) throw await office.redirect(office.href("checkout/payment-method"));
  const pointsOfSale = await api.get<PointOfSale[]>(`/frontend/events/${office.event.id}/points-of-sale`);
  return office.data({ basket, reference: basket.unikey ?? String(basket.id), pointsOfSale });
}
