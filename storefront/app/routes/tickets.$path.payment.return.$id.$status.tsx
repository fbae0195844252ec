import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { useOffice } from "../components/use-office";
import { hasResolvedInvoice } from "../lib/basket-rules";
import { loadCompletedBasket } from "../lib/baskets.server";
import { officeHref } from "../lib/office-paths";
import { TicketOffice } from "../lib/ticket-office.server";
import type { Route } from "./+types/tickets.$path.payment.return.$id.$status";

const STATUSES = ["success", "cancel", "error"] as const;
/** SPEC 2.4: after a failed payment, back to the basket after a countdown. */
const BACK_TO_BASKET_SECONDS = 10;

export async function loader(args: Route.LoaderArgs) {
  const { id, status } = args.params;
  // SPEC 5: a missing (or malformed) payment id gives 404.
  if (!/^\d+$/.test(id) || !STATUSES.includes(status as (typeof STATUSES)[number])) throw data(null, { status: 404 });
  const office = await TicketOffice.open(args);
  const api = await office.requireLoginApi();
  // SPEC 2.4: a cancelled payment goes back to the payment method, which says so.
  if (status === "cancel") throw await office.redirect(`${office.href("checkout/payment-method")}?payment=cancelled`);
  if (status === "success") {
    // The webhook often lands before the visitor does: then the order is confirmed already.
    const paid = await loadCompletedBasket(office, api);
    if (paid?.paymentIntents.some((intent) => intent.id === Number(id)) && hasResolvedInvoice(paid)) {
      throw await office.redirect(office.href("completion"));
    }
  }
  return office.data({ status: status as Exclude<(typeof STATUSES)[number], "cancel"> });
}

// Without JavaScript: success reloads until the payment is confirmed. (The error page's countdown is below.)
export const meta: Route.MetaFunction = ({ data }) =>
  data?.status === "success" ? [{ httpEquiv: "refresh", content: "5" }] : [];

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

export default function PaymentReturn({ loaderData: { status } }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { base } = useOffice();
  const title = t(`payment.${status}.title`);
  return (
    <section className="narrow">
      <title>{title}</title>
      <h1>{title}</h1>
      <p className={status === "error" ? "alert alert-error" : undefined}>{t(`payment.${status}.text`)}</p>
      {status === "success" && (
        <p>
          <Link to={officeHref(base, "completion")} className="button button-primary">
            {t("payment.success.link")}
          </Link>
        </p>
      )}
      {status === "error" && (
        <>
          <p className="inline-list">
            <Link to={officeHref(base, "checkout/payment-method")} className="button button-primary">
              {t("payment.error.retry")}
            </Link>
            <Link to={officeHref(base, "buy")} className="button">
              {t("payment.error.backToBasket")}
            </Link>
          </p>
          <Countdown seconds={BACK_TO_BASKET_SECONDS} to={officeHref(base, "buy")} />
        </>
      )}
    </section>
  );
}
