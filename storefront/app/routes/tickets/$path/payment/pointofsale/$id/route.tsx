import type { PointOfSale } from "@ticketing/shared/schemas/ticket-office";
import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { BasketSummary } from "#app/components/basket-summary.tsx";
import { isOngoing, wizardRedirect } from "#app/lib/basket-rules.ts";
import { loadOpenBasket } from "#app/lib/baskets.server.ts";
import { formatMoney } from "#app/lib/format.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

/**
 * DESIGN 4 "Payments": the buyer pays on site, quoting the basket's reference; staff then mark the invoice
 * paid and the order is confirmed (this page then leads to completion).
 */
export async function loader(args: Route.LoaderArgs) {
  // SPEC 5: a missing (or malformed) payment id gives 404.
  if (!/^\d+$/.test(args.params.id)) throw data(null, { status: 404 });
  const office = await TicketOffice.open(args);
  const api = await office.requireLoginApi();
  const { basket, newestIsCompleted } = await loadOpenBasket(office, api);
  // SPEC 2.3: an empty or missing basket goes back to buy; a paid one to completion.
  const target = wizardRedirect(basket, { step: "payment-method", newestIsCompleted });
  if (target || !basket) throw await office.redirect(office.href(target ?? "buy"));
  const intent = basket.paymentIntents.find(
    (candidate) => candidate.id === Number(args.params.id) && candidate.moduleKey === "point_of_sale",
  );
  if (!intent) throw data(null, { status: 404 });
  // A payment that is over (cancelled by staff) leaves the buyer to choose again.
  if (!isOngoing(intent)) throw await office.redirect(office.href("checkout/payment-method"));
  const pointsOfSale = await api.get<PointOfSale[]>(`/frontend/events/${office.event.id}/points-of-sale`);
  return office.data({ basket, reference: basket.unikey ?? String(basket.id), pointsOfSale });
}

export default function PointOfSalePayment({ loaderData }: Route.ComponentProps) {
  const { basket, reference, pointsOfSale } = loaderData;
  const { t, i18n } = useTranslation();
  return (
    <section className="narrow">
      <title>{t("pointOfSale.title")}</title>
      <h1>{t("pointOfSale.title")}</h1>
      <p className="alert alert-info">{t("pointOfSale.text", { total: formatMoney(basket.total, i18n.language) })}</p>
      <div className="card reference">
        <p>{t("pointOfSale.reference")}</p>
        <p className="reference-value">
          <strong>{reference}</strong>
        </p>
      </div>
      <section aria-labelledby="points-of-sale-title">
        <h2 id="points-of-sale-title">{t("pointOfSale.places")}</h2>
        {pointsOfSale.length === 0 ? (
          <p>{t("pointOfSale.noPlaces")}</p>
        ) : (
          <ul className="card-list">
            {pointsOfSale.map((place) => (
              <li key={place.id} className="card">
                <h3>{place.title}</h3>
                {place.location && <p>{place.location}</p>}
                {place.description && <p className="muted">{place.description}</p>}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="order-summary-title">
        <h2 id="order-summary-title">{t("checkout.payment.summary")}</h2>
        <BasketSummary basket={basket} />
      </section>
      <p className="muted">{t("pointOfSale.afterPayment")}</p>
    </section>
  );
}
