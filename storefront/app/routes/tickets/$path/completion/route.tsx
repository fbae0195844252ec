import { useTranslation } from "react-i18next";
import { Link } from "#app/components/link.tsx";
import { OrderDownloads } from "#app/components/order-downloads.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { officeHref } from "#app/lib/office-paths.ts";
import type { Route } from "./+types/route";

export { loader } from "./route.server";

export const meta: Route.MetaFunction = ({ data }) =>
  data?.isWaitingForPayment ? [{ httpEquiv: "refresh", content: "5" }] : [];

export default function Completion({ loaderData: { basket, page, invoices } }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { base, event } = useOffice();
  if (!basket) {
    return (
      <section className="narrow">
        <title>{t("payment.success.title")}</title>
        <h1>{t("payment.success.title")}</h1>
        <p>{t("payment.success.text")}</p>
        <p>
          <Link to={officeHref(base, "completion")}>{t("completion.refresh")}</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="narrow">
      <title>{t("completion.title")}</title>
      <h1>{t("completion.title")}</h1>
      <p className="alert alert-success" role="status">
        {t("completion.text", { event: event.frontendTitle })}
      </p>
      {page?.text?.split(/\n{2,}/).map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <OrderDownloads
        basket={basket}
        invoices={invoices}
        ticketsHref={`${base}/baskets/${basket.id}/tickets`}
        invoicesHref={`${base}/invoices`}
      />
      <p>
        {page?.redirectUrl ? (
          <a href={page.redirectUrl} className="button" data-turbo="false">
            {t("completion.continueToOrganiser")}
          </a>
        ) : (
          <Link to={base}>{t("completion.backToEvent")}</Link>
        )}
      </p>
    </section>
  );
}
