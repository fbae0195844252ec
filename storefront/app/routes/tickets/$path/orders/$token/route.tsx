import type { OrderView } from "@ticketing/shared/schemas/orders";
import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { OrderDownloads } from "#app/components/order-downloads.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { downloadableInvoices } from "#app/lib/invoices.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

/**
 * The order link of the confirmation mail: the order on any device, without a ticket-office login; the signed
 * token is the key (the API answers 404 for a tampered or expired one: the 404 page).
 */
export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  const { token } = args.params;
  const order = await office.api.get<OrderView>(`/frontend/orders/${encodeURIComponent(token)}`);
  // A link opens its order in its own event's ticket office only (the preview one for a testing order).
  if (order.event.id !== office.event.id || order.basket.testing !== office.testing) throw data(null, { status: 404 });
  return office.data({ order: { ...order, invoices: downloadableInvoices(order.invoices) }, token });
}

export default function Order({ loaderData: { order, token } }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { base } = useOffice();
  const { basket } = order;
  const files = `${base}/orders/${encodeURIComponent(token)}`;
  return (
    <section className="narrow">
      <title>{t("order.title")}</title>
      {/* The address is a key to the order: search engines must not keep it. */}
      <meta name="robots" content="noindex" />
      <h1>{t("order.title")}</h1>
      <p>{t("order.reference", { reference: basket.unikey, event: order.event.frontendTitle })}</p>
      <p>
        {t("order.status.label")}: <strong>{t(`order.status.${basket.status}`)}</strong>
      </p>
      <OrderDownloads
        basket={basket}
        invoices={order.invoices}
        ticketsHref={`${files}/tickets`}
        invoicesHref={`${files}/invoices`}
        areTicketsReady={basket.status === "validated"}
      />
      <p className="muted">{t("order.bookmark")}</p>
    </section>
  );
}
