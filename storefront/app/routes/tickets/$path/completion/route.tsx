import type { InvoiceRow } from "@ticketing/shared/schemas/invoices";
import type { ConfirmationPage } from "@ticketing/shared/schemas/ticket-office";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { OrderDownloads } from "#app/components/order-downloads.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { ongoingPaymentIntent } from "#app/lib/basket-rules.ts";
import { loadCompletedBasket, loadOpenBasket } from "#app/lib/baskets.server.ts";
import { downloadableInvoices } from "#app/lib/invoices.ts";
import { officeHref } from "#app/lib/office-paths.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  const api = await office.requireLoginApi();
  const basket = await loadCompletedBasket(office, api);
  if (basket) {
    // The organiser's own words, or their page to go on to (communication settings).
    const page = await api.get<ConfirmationPage>(`/frontend/events/${office.event.id}/confirmation-page`);
    // The paid invoice, and a credit note for each refund.
    const invoices = downloadableInvoices(await api.get<InvoiceRow[]>("/frontend/invoices", { basketId: basket.id }));
    return office.data({ basket, isWaitingForPayment: false, page, invoices });
  }
  // Paid but not confirmed yet: say so instead of sending the visitor away.
  const open = await loadOpenBasket(office, api);
  if (open.basket && ongoingPaymentIntent(open.basket))
    return office.data({ basket: null, isWaitingForPayment: true, page: null, invoices: [] });
  throw await office.redirect(office.href("buy"));
}

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
      <p className="alert alert-success">{t("completion.text", { event: event.frontendTitle })}</p>
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
