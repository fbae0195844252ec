import { useTranslation } from "react-i18next";
import { Link } from "#app/components/link.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { officeHref } from "#app/lib/office-paths.ts";
import type { Route } from "./+types/route";

export { loader } from "./route.server";

/** docs/specification.md §2.4: after a failed payment, back to the basket after a countdown. */
const BACK_TO_BASKET_SECONDS = 10;

/**
 * Waiting for the payment provider's confirmation: the page checks every CHECK_SECONDS, MAX_CHECKS times
 * (route.server.ts; one minute), then stops and says so, with a link to check again; it used to refresh forever.
 */
const CHECK_SECONDS = 5;

// Without JavaScript a meta refresh checks again (the root's script does the same for pages Turbo swapped in).
export const meta: Route.MetaFunction = ({ data }) =>
  data?.status === "success" && data.refreshTo
    ? [{ httpEquiv: "refresh", content: `${CHECK_SECONDS};url=${data.refreshTo}` }]
    : [];

/**
 * docs/specification.md §2.4: back to the basket after a countdown. Without JavaScript a meta refresh does it (inside
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
        <p className="alert alert-error" role="alert">
          {t("payment.error.text")}
        </p>
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
