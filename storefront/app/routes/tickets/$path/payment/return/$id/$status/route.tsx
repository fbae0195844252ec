import type { BasketDetail } from "@ticketing/shared/schemas/ticket-office";
import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { useOffice } from "#app/components/use-office.ts";
import { type ApiClient, ApiError } from "#app/lib/api.server.ts";
import { hasResolvedInvoice, isOngoing, paymentTermExpired } from "#app/lib/basket-rules.ts";
import { loadCompletedBasket, loadOpenBasket, loadPaymentBaskets } from "#app/lib/baskets.server.ts";
import { officeHref } from "#app/lib/office-paths.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

const STATUSES = ["success", "cancel", "error"] as const;
/** SPEC 2.4: after a failed payment, back to the basket after a countdown. */
const BACK_TO_BASKET_SECONDS = 10;
/**
 * Waiting for the payment provider's confirmation: the page checks every CHECK_SECONDS, MAX_CHECKS times (one
 * minute), then stops and says so, with a link to check again; it used to refresh forever.
 */
const CHECK_SECONDS = 5;
const MAX_CHECKS = 12;

export async function loader(args: Route.LoaderArgs) {
  const { id, status } = args.params;
  // SPEC 5: a missing (or malformed) payment id gives 404.
  if (!/^\d+$/.test(id) || !STATUSES.includes(status as (typeof STATUSES)[number])) throw data(null, { status: 404 });
  const office = await TicketOffice.open(args);
  // The page speaks of one payment: only the buyer whose basket holds it may see it (any other caller gets 404, as
  // everywhere in the ticket office). Without a login nobody's payment is theirs; a login page would only lead here.
  if (!office.isLoggedIn) throw data(null, { status: 404 });
  const api = await office.requireLoginApi();
  const { open, paid } = await loadPaymentBaskets(office, api);
  const intentId = Number(id);
  const holds = (basket: BasketDetail | null) => basket?.paymentIntents.some((intent) => intent.id === intentId);
  if (!holds(open) && !holds(paid)) throw await office.data(null, { status: 404 });
  // SPEC 2.4: a cancelled payment goes back to the payment method, which says so.
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
 * (SPEC 8 "Failed to cancel an ongoing payment"); "paid" when it went through meanwhile.
 */
async function cancelPayment(
  office: TicketOffice,
  api: ApiClient,
  id: number,
): Promise<"cancelled" | "paid" | "failed"> {
  const ongoing = async () => {
    const { basket } = await loadOpenBasket(office, api);
    const intent = basket?.paymentIntents.find((candidate) => candidate.id === id);
    return intent !== undefined && isOngoing(intent);
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

// Without JavaScript a meta refresh checks again (the root's script does the same for pages Turbo swapped in).
export const meta: Route.MetaFunction = ({ data }) =>
  data?.status === "success" && data.refreshTo
    ? [{ httpEquiv: "refresh", content: `${CHECK_SECONDS};url=${data.refreshTo}` }]
    : [];

/**
 * SPEC 2.4: back to the basket after a countdown. Without JavaScript a meta refresh does it (inside
 * `<noscript>`, so that it does not run when scripts do); with JavaScript the root's enhancement script counts
 * down in this paragraph and shows the button that stops it (WCAG 2.2.1: a time limit the reader may turn off).
 */
function Countdown({ seconds, to }: { seconds: number; to: string }) {
  const { t } = useTranslation();
  return (
    <>
      <noscript>
        <meta httpEquiv="refresh" content={`${seconds};url=${to}`} />
      </noscript>
      <p
        aria-live="polite"
        data-countdown={seconds}
        data-countdown-to={to}
        data-countdown-one={t("payment.backToBasketIn", { count: 1 })}
        data-countdown-other={t("payment.backToBasketIn", { count: 99 })}
      >
        <span data-countdown-text>{t("payment.backToBasketIn", { count: seconds })}</span>{" "}
        <button type="button" className="link-button" data-countdown-stop hidden>
          {t("payment.stopCountdown")}
        </button>
      </p>
    </>
  );
}

export default function PaymentReturn({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { base } = useOffice();
  if (loaderData.status === "cancelFailed") {
    const title = t("payment.cancelFailed.title");
    return (
      <section className="narrow">
        <title>{title}</title>
        <h1>{title}</h1>
        <p className="alert alert-error" role="alert">
          {t("payment.cancelFailed.text")}
        </p>
        <p className="inline-list">
          <Link to={`${base}/payment/return/${loaderData.id}/success`} className="button button-primary">
            {t("payment.cancelFailed.check")}
          </Link>
          <Link to={officeHref(base, "checkout/payment-method")} className="button">
            {t("payment.unconfirmed.backToPayment")}
          </Link>
        </p>
      </section>
    );
  }
  if (loaderData.status === "error") {
    const title = t("payment.error.title");
    return (
      <section className="narrow">
        <title>{title}</title>
        <h1>{title}</h1>
        <p className="alert alert-error">{t("payment.error.text")}</p>
        <p className="inline-list">
          <Link to={officeHref(base, "checkout/payment-method")} className="button button-primary">
            {t("payment.error.retry")}
          </Link>
          <Link to={officeHref(base, "buy")} className="button">
            {t("payment.error.backToBasket")}
          </Link>
        </p>
        <Countdown seconds={BACK_TO_BASKET_SECONDS} to={officeHref(base, "buy")} />
      </section>
    );
  }
  const isWaiting = loaderData.refreshTo !== null;
  const title = t(isWaiting ? "payment.success.title" : "payment.unconfirmed.title");
  return (
    <section className="narrow">
      <title>{title}</title>
      <h1>{title}</h1>
      {isWaiting ? (
        <>
          <p>{t("payment.success.text")}</p>
          <p>
            <Link to={officeHref(base, "completion")} className="button button-primary">
              {t("payment.success.link")}
            </Link>
          </p>
        </>
      ) : (
        <>
          <p className="alert alert-info" role="status">
            {t("payment.unconfirmed.text")}
          </p>
          <p className="inline-list">
            <Link to={loaderData.checkAgain} className="button button-primary">
              {t("payment.unconfirmed.checkAgain")}
            </Link>
            <Link to={officeHref(base, "checkout/payment-method")} className="button">
              {t("payment.unconfirmed.backToPayment")}
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
