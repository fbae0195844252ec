import type { BasketDetail, CheckoutResult } from "@ticketing/shared/schemas/ticket-office";
import { redirectDocument } from "react-router";
import { getFixedT } from "#app/i18n.server.ts";
import { type ApiClient, ApiError } from "#app/lib/api.server.ts";
import { ongoingPaymentIntent } from "#app/lib/basket-rules.ts";
import { keepHold, requireWizardBasket } from "#app/lib/baskets.server.ts";
import { holdTimerOf } from "#app/lib/hold-timer.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

async function openStep(args: Route.LoaderArgs | Route.ActionArgs) {
  const office = await TicketOffice.open(args);
  const { api, basket } = await requireWizardBasket(office, "payment-method");
  // docs/specification.md §2.4: checkout needs billing information first.
  if (!basket.billingInformation) throw await office.redirect(office.href("checkout/billing-information"));
  return { office, api, basket };
}

export async function loader(args: Route.LoaderArgs) {
  const { office, basket } = await openStep(args);
  const ongoing = ongoingPaymentIntent(basket);
  return office.data({
    basket,
    hold: holdTimerOf(basket, office.event.reservationMinutes, new Date()),
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
 * the provider could not cancel it (paid meanwhile), the page says that instead (docs/specification.md §8).
 */
async function cancelPayment(office: TicketOffice, api: ApiClient, basket: BasketDetail, form: FormData) {
  const posted = String(form.get("paymentIntentId") ?? "");
  const intent = basket.paymentIntents.find((row) => String(row.id) === posted) ?? ongoingPaymentIntent(basket);
  if (intent?.isOngoing) {
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
  // "Keep my tickets longer" (the checkout's hold box).
  if (form.get("intent") === "keepHold") {
    const refusal = await keepHold(api, basket.id);
    if (refusal) return office.data<ActionResult>({ errors: refusal.errors }, { status: refusal.status });
    return office.redirect(office.href("checkout/payment-method"));
  }
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
  // docs/design.md §4: the buyer pays on site, quoting the basket's reference.
  if (result.paymentIntent?.moduleKey === "point_of_sale")
    return office.redirect(office.href(`payment/pointofsale/${result.paymentIntent.id}`));
  // A free basket is validated at once (docs/design.md §4); otherwise the payment page is outside this app.
  if (!result.paymentUrl) return office.redirect(office.href("completion"));
  return redirectDocument(result.paymentUrl, { headers: await office.headers() });
}
