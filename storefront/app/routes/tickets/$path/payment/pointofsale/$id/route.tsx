import { useTranslation } from "react-i18next";
import { BasketSummary } from "#app/components/basket-summary.tsx";
import { formatMoney } from "#app/lib/format.ts";
import type { Route } from "./+types/route";

export { loader } from "./route.server";

export default function PointOfSalePayment({ loaderData }: Route.ComponentProps) {
  const { basket, reference, pointsOfSale } = loaderData;
  const { t, i18n } = useTranslation();
  return (
    <section className="narrow">
      <title>{t("pointOfSale.title")}</title>
      <h1>{t("pointOfSale.title")}</h1>
      <p className="alert alert-info" role="status">
        {t("pointOfSale.text", { total: formatMoney(basket.total, i18n.language) })}
      </p>
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
