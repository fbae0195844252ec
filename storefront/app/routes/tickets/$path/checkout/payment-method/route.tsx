import type { BasketDetail, CheckoutResult } from "@ticketing/shared/schemas/ticket-office";
import { useTranslation } from "react-i18next";
import { Form, Link, redirectDocument } from "react-router";
import { BasketSummary } from "#app/components/basket-summary.tsx";
import { ErrorMessages } from "#app/components/error-messages.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { getFixedT } from "#app/i18n.server.ts";
import { type ApiClient, ApiError } from "#app/lib/api.server.ts";
import { isOngoing, ongoingPaymentIntent } from "#app/lib/basket-rules.ts";
import { requireWizardBasket } from "#app/lib/baskets.server.ts";
import { officeHref } from "#app/lib/office-paths.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

async function openStep(args: Route.LoaderArgs | Route.ActionArgs) {
  const office = await TicketOffice.open(args);
  const { api, basket } = await requireWizardBasket(office, "payment-method");
  // SPEC 2.4: checkout needs billing information first.
  if (!basket.billingInformation) throw await office.redirect(office.href("checkout/billing-information"));
  return { office, api, basket };
}

export async function loader(args: Route.LoaderArgs) {
  const { office, basket } = await openStep(args);
  const ongoing = ongoingPaymentIntent(basket);
  return office.data({
    basket,
    ongoingPayment: ongoing
      ? {
          id: ongoing.id,
          paymentUrl: ongoing.paymentUrl ?? null,
          pointOfSaleHref:
            ongoing.moduleKey === "point_of_sale" ? office.href(`payment/pointofsale/${ongoing.id}`) : null,
        }
      : null,
    isPaymentAllowed: office.isPaymentAllowed,
    isPointOfSaleEnabled: Boolean(office.event.isPointOfSaleEnabled),
    // Back from the provider's page after cancelling (payment/return/:id/cancel).
    wasCancelled: new URL(args.request.url).searchParams.get("payment") === "cancelled",
  });
}

type ActionResult = { errors: string[]; termsError?: string };

/**
 * "Cancel this payment": cancelled at the provider, then the basket is the buyer's again and this page says so. When
 * the provider could not cancel it (paid meanwhile), the page says that instead (SPEC 8).
 */
async function cancelPayment(office: TicketOffice, api: ApiClient, basket: BasketDetail, form: FormData) {
  const posted = String(form.get("paymentIntentId") ?? "");
  const intent = basket.paymentIntents.find((row) => String(row.id) === posted) ?? ongoingPaymentIntent(basket);
  if (intent && isOngoing(intent)) {
    try {
      await api.post<BasketDetail>(`/frontend/payment-intents/${intent.id}/cancel`);
    } catch (error) {
      if (error instanceof ApiError)
        return office.data<ActionResult>({ errors: error.errors }, { status: error.status });
      throw error;
    }
  }
  return office.redirect(`${office.href("checkout/payment-method")}?payment=cancelled`);
}

export async function action(args: Route.ActionArgs) {
  const form = await readPostedForm(args.request);
  const { office, api, basket } = await openStep(args);
  if (form.get("intent") === "cancelPayment") return cancelPayment(office, api, basket, form);
  const t = getFixedT(office.language);
  if (!office.isPaymentAllowed)
    return office.data<ActionResult>({ errors: [t("checkout.payment.notAllowed")] }, { status: 409 });
  if (form.get("termsAccepted") !== "on") {
    return office.data<ActionResult>({ errors: [], termsError: t("checkout.payment.termsRequired") }, { status: 400 });
  }
  const paymentMethod =
    form.get("paymentMethod") === "point_of_sale" && office.event.isPointOfSaleEnabled ? "point_of_sale" : "online";
  let result: CheckoutResult;
  try {
    result = await api.post<CheckoutResult>(`/frontend/baskets/${basket.id}/checkout`, {
      paymentMethod,
      termsAccepted: true,
    });
  } catch (error) {
    if (error instanceof ApiError) return office.data<ActionResult>({ errors: error.errors }, { status: error.status });
    throw error;
  }
  // DESIGN 4: the buyer pays on site, quoting the basket's reference.
  if (result.paymentIntent?.moduleKey === "point_of_sale")
    return office.redirect(office.href(`payment/pointofsale/${result.paymentIntent.id}`));
  // A free basket is validated at once (DESIGN 4); otherwise the payment page is outside this app.
  if (!result.paymentUrl) return office.redirect(office.href("completion"));
  return redirectDocument(result.paymentUrl, { headers: await office.headers() });
}

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
          <p>{t("checkout.payment.ongoing")}</p>
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
        <p className="alert alert-info">{t("checkout.payment.notAllowed")}</p>
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
