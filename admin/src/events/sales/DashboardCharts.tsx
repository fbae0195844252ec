// The dashboard's two charts (sales over time, sales per article), each under its heading and with its figures in a
// table too, for whoever would rather read them or cannot see the chart.
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useTheme,
} from "@mui/material";
import { BarChart } from "@mui/x-charts/BarChart";
import { ChartsLocalizationProvider } from "@mui/x-charts/ChartsLocalizationProvider";
import { frFRLocalText } from "@mui/x-charts/locales";
import { formatMoney, formatMoneyCompact } from "@ticketing/shared/money";
import { type ReactNode, useId, useMemo, useState } from "react";
import { useLocaleState, useTranslate } from "react-admin";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { type ArticleSales, type DaySales, dayFormatter, everyDay } from "./dashboard.ts";
import { EmptyFigures } from "./SalesReport.tsx";

/** A chart's card: its heading, the chart (or `empty` when there is nothing to draw), its figures' table. */
const ChartCard = ({
  title,
  empty,
  control,
  chart,
  table,
}: {
  title: string;
  /** an i18n key, shown instead of the chart and the table */
  empty?: string;
  control?: ReactNode;
  chart: ReactNode;
  table: ReactNode;
}) => {
  const translate = useTranslate();
  const headingId = useId();
  const [locale] = useLocaleState();
  return (
    <Card component="section" aria-labelledby={headingId} sx={{ mt: 2 }}>
      <CardContent>
        <Typography
          variant="h6"
          component="h2"
          id={headingId}
          sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", gap: 2 }}
        >
          {translate(title)}
          {!empty && control}
        </Typography>
        {empty ? (
          <EmptyFigures text={empty} />
        ) : (
          <>
            <ChartsLocalizationProvider localeText={locale === "fr" ? frFRLocalText : undefined}>
              {chart}
            </ChartsLocalizationProvider>
            <Accordion disableGutters elevation={0} sx={{ "&::before": { display: "none" } }}>
              <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                <Typography variant="body2">{translate("admin.dashboard.showFigures")}</Typography>
              </AccordionSummary>
              <AccordionDetails sx={{ p: 0, maxHeight: 400, overflow: "auto" }}>{table}</AccordionDetails>
            </Accordion>
          </>
        )}
      </CardContent>
    </Card>
  );
};

/** Sales and refunds per day (UTC), every day between the first and the last at scale. */
export const SalesOverTimeChart = ({ days }: { days: DaySales[] }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const theme = useTheme();
  const shown = useMemo(() => everyDay(days), [days]);
  const shortDay = dayFormatter(locale, "short");
  const longDay = dayFormatter(locale, "long");
  const money = (cents: number | null) => (cents === null ? "" : formatMoney(cents, locale));
  const number = new Intl.NumberFormat(intlLocaleOf(locale));

  return (
    <ChartCard
      title="admin.dashboard.salesOverTime"
      empty={days.length === 0 ? "admin.dashboard.salesOverTimeEmpty" : undefined}
      chart={
        <BarChart
          height={300}
          xAxis={[
            {
              scaleType: "band",
              data: shown.map((day) => day.date),
              valueFormatter: (date: string, context) => (context.location === "tick" ? shortDay(date) : longDay(date)),
            },
          ]}
          // Ticks in a few characters (`CHF 1.5K`): whole amounts (`CHF 10'000.00`) took a third of a phone's width
          // or were cut short (`CHF 100…`); the tooltip and the table give them exactly.
          yAxis={[{ width: "auto", valueFormatter: (cents: number) => formatMoneyCompact(cents, locale) }]}
          series={[
            {
              label: translate("admin.dashboard.sales"),
              data: shown.map((day) => day.sales),
              valueFormatter: money,
              color: theme.palette.primary.main,
            },
            {
              label: translate("admin.dashboard.refunds"),
              data: shown.map((day) => day.refunds),
              valueFormatter: money,
              color: theme.palette.error.main,
            },
          ]}
        />
      }
      table={
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate("admin.dashboard.day")}</TableCell>
              <TableCell align="right">{translate("admin.dashboard.sales")}</TableCell>
              <TableCell align="right">{translate("admin.dashboard.refunds")}</TableCell>
              <TableCell align="right">{translate("admin.dashboard.baskets")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {days.map((day) => (
              <TableRow key={day.date}>
                <TableCell component="th" scope="row">
                  {longDay(day.date)}
                </TableCell>
                <TableCell align="right">{money(day.sales)}</TableCell>
                <TableCell align="right">{money(day.refunds)}</TableCell>
                <TableCell align="right">{number.format(day.baskets)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      }
    />
  );
};

type Measure = "amount" | "count";

/** The articles sold (most first), by amount or by number, as horizontal bars. */
export const SalesPerArticleChart = ({ articles }: { articles: ArticleSales[] }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [measure, setMeasure] = useState<Measure>("amount");
  const number = new Intl.NumberFormat(intlLocaleOf(locale));
  const format = (value: number | null) =>
    value === null ? "" : measure === "amount" ? formatMoney(value, locale) : number.format(value);

  return (
    <ChartCard
      title="admin.dashboard.salesPerArticle"
      empty={articles.length === 0 ? "admin.dashboard.salesPerArticleEmpty" : undefined}
      control={
        <ToggleButtonGroup
          size="small"
          exclusive
          value={measure}
          onChange={(_, value: Measure | null) => value && setMeasure(value)}
          aria-label={translate("admin.dashboard.measure")}
        >
          <ToggleButton value="amount">{translate("admin.dashboard.amount")}</ToggleButton>
          <ToggleButton value="count">{translate("admin.dashboard.count")}</ToggleButton>
        </ToggleButtonGroup>
      }
      chart={
        <BarChart
          layout="horizontal"
          height={Math.max(160, 48 + articles.length * 36)}
          hideLegend
          // Indices, not titles: two articles may have the same title (in different groups), a band scale would merge them.
          yAxis={[
            {
              scaleType: "band",
              data: articles.map((_, index) => index),
              valueFormatter: (index: number) => articles[index]?.title ?? "",
              width: "auto",
            },
          ]}
          xAxis={[
            {
              valueFormatter: (value: number) =>
                measure === "amount" ? formatMoneyCompact(value, locale) : number.format(value),
              tickMinStep: measure === "count" ? 1 : undefined,
            },
          ]}
          // Room on the right for the last tick's label, which the chart would otherwise cut short.
          margin={{ right: 32 }}
          series={[
            {
              label: translate(measure === "amount" ? "admin.dashboard.amount" : "admin.dashboard.count"),
              data: articles.map((article) => (measure === "amount" ? article.amount : article.count)),
              valueFormatter: format,
            },
          ]}
        />
      }
      table={
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate("admin.dashboard.article")}</TableCell>
              <TableCell align="right">{translate("admin.dashboard.count")}</TableCell>
              <TableCell align="right">{translate("admin.dashboard.amount")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {articles.map((article, index) => (
              <TableRow key={article.nodeId ?? `removed-${index}`}>
                <TableCell component="th" scope="row">
                  {article.title}
                </TableCell>
                <TableCell align="right">{number.format(article.count)}</TableCell>
                <TableCell align="right">{formatMoney(article.amount, locale)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      }
    />
  );
};
