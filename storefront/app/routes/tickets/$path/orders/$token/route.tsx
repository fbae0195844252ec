import { useTranslation } from "react-i18next";
import { OrderDownloads } from "#app/components/order-downloads.tsx";
import { useOffice } from "#app/components/use-office.ts";
import type { Route } from "./+types/route";

export { loader } from "./route.server";

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
