// The dashboard's figures as its charts and tables show them (docs/specification.md §3 "Dashboard statistics").
import type { Dashboard } from "@ticketing/shared/schemas/sales";
import { intlLocaleOf } from "../../i18nProvider.ts";

export type DaySales = Dashboard["salesOverTime"][number];
export type ArticleSales = Dashboard["salesPerArticle"][number];

const DAY = 24 * 60 * 60 * 1000;
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`);
const dateOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * Every day from the first to the last with sales or refunds, those without at zero, so that the chart's time is
 * to scale; the days as given when they span more than `maxDays` (a chart of thousands of bars reads no better).
 */
export function everyDay(days: readonly DaySales[], maxDays = 400): DaySales[] {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return [];
  const span = (dayOf(last.date) - dayOf(first.date)) / DAY + 1;
  if (!Number.isFinite(span) || span > maxDays || span <= days.length) return [...days];
  const byDate = new Map(days.map((day) => [day.date, day]));
  return Array.from({ length: span }, (_, index) => {
    const date = dateOf(dayOf(first.date) + index * DAY);
    return byDate.get(date) ?? { date, sales: 0, refunds: 0, baskets: 0 };
  });
}

/** A `YYYY-MM-DD` day (UTC, as the API counts it) in the admin's language: `short` on an axis, `long` elsewhere. */
export function dayFormatter(locale: string, style: "short" | "long"): (date: string) => string {
  const format = new Intl.DateTimeFormat(intlLocaleOf(locale), {
    ...(style === "short" ? { day: "numeric", month: "short" } : { dateStyle: "medium" }),
    timeZone: "UTC",
  });
  return (date) => {
    const time = dayOf(date);
    return Number.isNaN(time) ? date : format.format(time);
  };
}
