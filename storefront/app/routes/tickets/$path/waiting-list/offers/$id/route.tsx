import type { WaitingListOffer } from "@ticketing/shared/schemas/waiting-list";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { ErrorMessages } from "#app/components/error-messages.tsx";
import { ErrorPage } from "#app/components/error-page.tsx";
import { Link } from "#app/components/link.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { formatDateRange } from "#app/lib/format.ts";
import { officeHref } from "#app/lib/office-paths.ts";
import { offerView, waitingListHref } from "#app/lib/waiting-list.ts";
import type { Route } from "./+types/route";

export { action, loader } from "./route.server";

/** An instant as the office writes dates (a range of one instant is that instant, written once). */
const formatInstant = (iso: string, language: string) => formatDateRange(iso, iso, language);

/** Buy now and Decline: plain forms carrying the mail's code (a GET never acts: mail scanners follow links). */
function OfferChoices({ offer, code, isOpened }: { offer: WaitingListOffer; code: string; isOpened: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="stack">
      <Form method="post">
        <input type="hidden" name="code" value={code} />
        <button type="submit" name="intent" value="open" className="button button-primary">
          {isOpened ? t("waitingList.offer.continue") : t("waitingList.offer.buy")}
        </button>
      </Form>
      {!isOpened && (
        <Form method="post">
          <input type="hidden" name="code" value={code} />
          <button type="submit" name="intent" value="decline" className="button">
            {t("waitingList.offer.decline")}
            <span className="visually-hidden"> {offer.title}</span>
          </button>
        </Form>
      )}
    </div>
  );
}

export default function Offer({ loaderData, actionData }: Route.ComponentProps) {
  const { offer, code, errors, now } = loaderData;
  const { t, i18n } = useTranslation();
  const { base } = useOffice();
  const title = t("waitingList.offer.title");
  const view = offer ? offerView(offer, new Date(now)) : null;
  const quantity = offer ? (offer.offeredQuantity ?? offer.quantity) : 0;
  return (
    <section className="narrow stack">
      <title>{title}</title>
      <h1>{title}</h1>
      <ErrorMessages errors={[...errors, ...(actionData?.errors ?? [])]} />
      {offer && (
        <div className="card">
          <h2>{offer.title}</h2>
          <p>
            {t("waitingList.offer.quantity")} <strong>{quantity}</strong>
          </p>
          {offer.offerExpiresAt && (view === "open" || view === "opened") && (
            <p>
              {t("waitingList.offer.until")} <strong>{formatInstant(offer.offerExpiresAt, i18n.language)}</strong>
            </p>
          )}
        </div>
      )}
      {offer && view === "open" && (
        <>
          <p>{t("waitingList.offer.text", { count: quantity, title: offer.title })}</p>
          <OfferChoices offer={offer} code={code} isOpened={false} />
        </>
      )}
      {offer && view === "opened" && (
        <>
          <p>{t("waitingList.offer.opened")}</p>
          <OfferChoices offer={offer} code={code} isOpened />
        </>
      )}
      {view && view !== "open" && view !== "opened" && (
        <p className={view === "bought" ? "alert alert-success" : "alert alert-info"} role="status">
          {t(`waitingList.offer.${view}`)}
        </p>
      )}
      <p>
        <Link to={waitingListHref(base)}>{t("waitingList.offer.toList")}</Link>
        {" · "}
        <Link to={officeHref(base, "")}>{t("waitingList.offer.toEvent")}</Link>
      </p>
    </section>
  );
}

/** Inside the ticket office's frame, like its other pages. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
