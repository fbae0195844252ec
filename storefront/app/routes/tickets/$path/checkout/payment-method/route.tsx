import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { BasketSummary } from "#app/components/basket-summary.tsx";
import { ErrorMessages } from "#app/components/error-messages.tsx";
import { Link } from "#app/components/link.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { officeHref } from "#app/lib/office-paths.ts";
import type { Route } from "./+types/route";

export { action, loader } from "./route.server";

export default function PaymentMethodStep({ loaderData, actionData }: Route.ComponentProps) {
  const { basket, ongoingPayment, isPaymentAllowed, isPointOfSaleEnabled, wasCancelled } = loaderData;
  const { t } = useTranslation();
  const { base } = useOffice();
  const termsError = actionData?.termsError;
  const isFree = basket.total === 0;
  return (
    <section className="narrow">
      <title>{t("checkout.payment.title")}</title>
      <h1>{t("checkout.payment.title")}</h1>
      <section className="card" aria-labelledby="order-summary-title">
        <h2 id="order-summary-title">{t("checkout.payment.summary")}</h2>
        <BasketSummary basket={basket} />
        <p>
          <Link to={officeHref(base, "checkout/billing-information")}>{t("checkout.payment.editBilling")}</Link>
        </p>
      </section>
      {wasCancelled && !ongoingPayment && (
        <p className="alert alert-info" role="status">
          {t("payment.cancel.text")}
        </p>
      )}
      <ErrorMessages errors={actionData?.errors} />
      {ongoingPayment ? (
        <div className="alert alert-info">
          <p role="status">{t("checkout.payment.ongoing")}</p>
          <div className="inline-list">
            {ongoingPayment.paymentUrl && (
              <a href={ongoingPayment.paymentUrl} className="button button-primary" data-turbo="false">
                {t("checkout.payment.continue")}
              </a>
            )}
            {ongoingPayment.pointOfSaleHref && (
              <Link to={ongoingPayment.pointOfSaleHref} className="button button-primary">
                {t("checkout.payment.pointOfSaleInstructions")}
              </Link>
            )}
            {/* The articles stay in the basket, held; the buyer may then pay another way. */}
            <Form method="post">
              <input type="hidden" name="intent" value="cancelPayment" />
              <input type="hidden" name="paymentIntentId" value={ongoingPayment.id} />
              <button type="submit" className="button">
                {t("checkout.payment.cancelPayment")}
              </button>
            </Form>
          </div>
        </div>
      ) : !isPaymentAllowed ? (
        <p className="alert alert-info" role="status">
          {t("checkout.payment.notAllowed")}
        </p>
      ) : (
        // The answer is the payment provider's page: a document of its own under its own Content-Security-Policy,
        // not one for Turbo to parse and render inside this one (docs/decisions/0007).
        <Form method="post" className="stack" data-turbo="false">
          {!isFree && (
            <fieldset>
              <legend>{t("checkout.payment.method")}</legend>
              <label className="checkbox">
                <input type="radio" name="paymentMethod" value="online" defaultChecked />
                <span>{t("checkout.payment.online")}</span>
              </label>
              {isPointOfSaleEnabled && (
                <label className="checkbox">
                  <input type="radio" name="paymentMethod" value="point_of_sale" />
                  <span>{t("checkout.payment.pointOfSale")}</span>
                </label>
              )}
            </fieldset>
          )}
          <div className={termsError ? "field field-invalid" : "field"}>
            {termsError && (
              <p className="field-error" id="terms-error">
                {termsError}
              </p>
            )}
            <label className="checkbox">
              <input
                type="checkbox"
                name="termsAccepted"
                required
                aria-invalid={termsError ? true : undefined}
                aria-describedby={termsError ? "terms-error" : undefined}
              />
              <span>{t("checkout.payment.acceptTerms")}</span>
            </label>
            <p className="small">
              <Link to="/legal/terms-of-service" target="_blank">
                {t("checkout.payment.readTerms")}
              </Link>
            </p>
          </div>
          <button type="submit" className="button button-primary">
            {isFree ? t("checkout.payment.confirmFree") : t("checkout.payment.pay")}
          </button>
        </Form>
      )}
    </section>
  );
}
