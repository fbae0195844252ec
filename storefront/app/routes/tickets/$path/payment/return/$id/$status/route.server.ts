import { PAYMENT_OUTCOMES, type PaymentOutcome } from "@ticketing/shared/constants";
import type { BasketDetail } from "@ticketing/shared/schemas/ticket-office";
import { data } from "react-router";
import { type ApiClient, ApiError } from "#app/lib/api.server.ts";
import { hasResolvedInvoice, paymentTermExpired } from "#app/lib/basket-rules.ts";
import { loadCompletedBasket, loadOpenBasket, loadPaymentBaskets } from "#app/lib/baskets.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

/** How many times the page checks for the provider's confirmation before it stops (route.tsx CHECK_SECONDS). */
const MAX_CHECKS = 12;

export async function loader(args: Route.LoaderArgs) {
  const { id, status } = args.params;
  // docs/specification.md §5: a missing (or malformed) payment id gives 404.
  if (!/^\d+$/.test(id) || !PAYMENT_OUTCOMES.includes(status as PaymentOutcome)) throw data(null, { status: 404 });
  const office = await TicketOffice.open(args);
  // The page speaks of one payment: only the buyer whose basket holds it may see it (any other caller gets 404, as
  // everywhere in the ticket office). Without a login nobody's payment is theirs; a login page would only lead here.
  if (!office.isLoggedIn) throw data(null, { status: 404 });
  const api = await office.requireLoginApi();
  const { open, paid } = await loadPaymentBaskets(office, api);
  const intentId = Number(id);
  const holds = (basket: BasketDetail | null) => basket?.paymentIntents.some((intent) => intent.id === intentId);
  if (!holds(open) && !holds(paid)) throw await office.data(null, { status: 404 });
  // docs/specification.md §2.4: a cancelled payment goes back to the payment method, which says so.
  const cancelled = `${office.href("checkout/payment-method")}?payment=cancelled`;
  if (status === "cancel") {
    // The buyer left the provider's page: the payment is cancelled there too, so it cannot be paid afterwards.
    const cancel = await cancelPayment(office, api, intentId);
    if (cancel === "paid") throw await office.redirect(office.href("completion"));
    if (cancel === "failed") return office.data({ status: "cancelFailed" as const, id }, { status: 409 });
    throw await office.redirect(cancelled);
  }
  if (status === "error") return office.data({ status: "error" as const });
  // The webhook often lands before the visitor does: then the order is confirmed already.
  if (paid && holds(paid) && hasResolvedInvoice(paid)) throw await office.redirect(office.href("completion"));
  // A payment that was cancelled, expired or failed will not be confirmed: say so instead of waiting.
  const intent = open?.paymentIntents.find((candidate) => candidate.id === intentId);
  if (intent?.isError) throw await office.redirect(`${office.location.base}/payment/return/${id}/error`);
  if (intent?.isCancelled) throw await office.redirect(paymentTermExpired(open) ? office.href("buy") : cancelled);
  const url = new URL(args.request.url);
  const check = url.searchParams.get("check") ?? "";
  const checks = /^\d{1,3}$/.test(check) ? Math.min(Number(check), MAX_CHECKS) : 0;
  return office.data({
    status: "success" as const,
    // The next check, or null once the page has waited long enough.
    refreshTo: checks < MAX_CHECKS ? `${url.pathname}?check=${checks + 1}` : null,
    checkAgain: url.pathname,
  });
}

/**
 * Cancels the payment if it is still ongoing. "failed" when the provider could not cancel it and it is still ongoing
 * (docs/specification.md §8 "Failed to cancel an ongoing payment"); "paid" when it went through meanwhile.
 */
async function cancelPayment(
  office: TicketOffice,
  api: ApiClient,
  id: number,
): Promise<"cancelled" | "paid" | "failed"> {
  const ongoing = async () => {
    const { basket } = await loadOpenBasket(office, api);
    const intent = basket?.paymentIntents.find((candidate) => candidate.id === id);
    return intent?.isOngoing === true;
  };
  if (!(await ongoing())) return "cancelled";
  try {
    await api.post(`/frontend/payment-intents/${id}/cancel`);
    return "cancelled";
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  const paid = await loadCompletedBasket(office, api);
  if (paid?.paymentIntents.some((intent) => intent.id === id && intent.invoice?.isResolved)) return "paid";
  return (await ongoing()) ? "failed" : "cancelled";
}
