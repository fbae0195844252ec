import { Box, Card, CardContent, Typography } from "@mui/material";
import { formatMoney } from "@ticketing/shared/money";
import type { Dashboard } from "@ticketing/shared/schemas/sales";
import { useId } from "react";
import { useLocaleState, useTranslate } from "react-admin";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { useVisitedView } from "../../layout/useVisitedView.ts";
import { SalesOverTimeChart, SalesPerArticleChart } from "./DashboardCharts.tsx";
import { SalesReport } from "./SalesReport.tsx";

/** The five figures of docs/specification.md §3, their label's i18n key and how to write them. */
const FIGURES = [
  { key: "totalSales", money: true },
  { key: "totalRefunded", money: true },
  { key: "validatedBaskets", money: false },
  { key: "refundedBaskets", money: false },
  { key: "currentlyPurchasing", money: false },
] as const satisfies readonly { key: keyof Dashboard; money: boolean }[];

/** One figure: its name as a heading, the figure, what it counts. */
const FigureCard = ({ label, value, help }: { label: string; value: string; help: string }) => {
  const headingId = useId();
  return (
    <Card component="section" aria-labelledby={headingId}>
      <CardContent>
        <Typography variant="overline" component="h3" id={headingId} sx={{ lineHeight: 1.5 }}>
          {label}
        </Typography>
        {/* A large sum wraps rather than being cut at the card's edge. */}
        <Typography variant="h4" component="p" sx={{ fontVariantNumeric: "tabular-nums", overflowWrap: "anywhere" }}>
          {value}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {help}
        </Typography>
      </CardContent>
    </Card>
  );
};

const Figures = ({ dashboard }: { dashboard: Dashboard }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const headingId = useId();
  const number = new Intl.NumberFormat(intlLocaleOf(locale));
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography variant="h6" component="h2" id={headingId} gutterBottom>
        {translate("admin.dashboard.figures")}
      </Typography>
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: "repeat(auto-fill, minmax(190px, 1fr))" }}>
        {FIGURES.map(({ key, money }) => (
          <FigureCard
            key={key}
            label={translate(`admin.dashboard.${key}`)}
            value={money ? formatMoney(dashboard[key], locale) : number.format(dashboard[key])}
            help={translate(`admin.dashboard.${key}Help`)}
          />
        ))}
      </Box>
    </Box>
  );
};

/**
 * docs/specification.md §2.2 `/events/:id/dashboard`: the event's sales at a glance (`GET /events/:id/dashboard`): the
 * five figures of docs/specification.md §3 in CHF, sales and refunds per day, sales per article; real sales, or the
 * testing ones with `preview=true`.
 */
export const EventDashboard = () => {
  useVisitedView("Dashboard");
  return (
    <SalesReport page="dashboard" method="getEventDashboard" titleKey="admin.dashboard.title">
      {(dashboard) => (
        <>
          <Figures dashboard={dashboard} />
          <SalesOverTimeChart days={dashboard.salesOverTime} />
          <SalesPerArticleChart articles={dashboard.salesPerArticle} />
        </>
      )}
    </SalesReport>
  );
};
