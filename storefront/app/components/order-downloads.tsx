import type { BasketDetail } from "@ticketing/shared/schemas/ticket-office";
import { useTranslation } from "react-i18next";
import type { DownloadableInvoice } from "../lib/invoices";
import { BasketSummary } from "./basket-summary";

/**
 * The order's card: its lines and total, a download of each ticket (and of all of them at once) once the order is
 * paid, and its invoices and credit notes. The completion page fetches the files with the visitor's login, the
 * order link's page with its signed token: each passes where its files are (`ticketsHref`, `invoicesHref`).
 */
export function OrderDownloads({
  basket,
  invoices,
  ticketsHref,
  invoicesHref,
  areTicketsReady = true,
}: {
  basket: Pick<BasketDetail, "id" | "items" | "total">;
  invoices: readonly DownloadableInvoice[];
  ticketsHref: string;
  invoicesHref: string;
  areTicketsReady?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="order-title">
      <h2 id="order-title">{t("completion.order", { id: basket.id })}</h2>
      {areTicketsReady && basket.items.length > 1 && (
        <p>
          {/* One file for the whole order: what a confirmation mail with too many tickets to attach links to. */}
          <a href={ticketsHref} download data-turbo="false" className="button">
            {t("completion.downloadAllTickets")}
          </a>
        </p>
      )}
      <BasketSummary
        basket={basket}
        itemAction={
          areTicketsReady
            ? (item) => (
                // A plain link: the PDF is a download, not a page of this app.
                <a
                  href={`${ticketsHref}/${item.id}`}
                  download={`ticket-${item.id}.pdf`}
                  data-turbo="false"
                  className="button button-small"
                >
                  {t("completion.downloadTicket")}
                  <span className="visually-hidden"> – {item.title}</span>
                </a>
              )
            : undefined
        }
      />
      {!areTicketsReady && <p className="muted">{t("order.ticketsLater")}</p>}
      {invoices.length > 0 && (
        <ul className="inline-list">
          {invoices.map((invoice) => (
            <li key={invoice.id}>
              {/* A plain link, like the tickets: the storefront fetches the PDF for the visitor. */}
              <a href={`${invoicesHref}/${invoice.id}/pdf`} download data-turbo="false" className="button">
                {invoice.isRefund
                  ? t("completion.downloadCreditNote", { number: invoice.displayNumber })
                  : t("completion.downloadInvoice", { number: invoice.displayNumber })}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
