// How an event's dates read, in the buyer's language: on tickets, invoices and the mails about an order.
import type { Language } from "@ticketing/shared/constants";

// Event times are shown where the events take place (prices are in CHF: Switzerland).
const TIME_ZONE = "Europe/Zurich";

/** `Saturday, 12 December 2026, 19:00–23:30`: what both ends share is shown once; date-only values show no time. */
export function formatEventDates(start: string, end: string, language: Language): string {
  const from = new Date(start);
  const to = new Date(end);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return `${start} – ${end}`;
  const isDateOnly = /^\d{4}-\d{2}-\d{2}$/.test(start) && /^\d{4}-\d{2}-\d{2}$/.test(end);
  const format = dateFormat(language, isDateOnly);
  return from <= to ? format.formatRange(from, to) : format.format(from);
}

// Building an Intl.DateTimeFormat costs about a millisecond: one per language and kind, for every page.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(language: Language, isDateOnly: boolean): Intl.DateTimeFormat {
  const key = `${language}:${isDateOnly}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language === "fr" ? "fr-CH" : "en-GB", {
      dateStyle: "full",
      ...(isDateOnly ? { timeZone: "UTC" } : { timeStyle: "short", timeZone: TIME_ZONE }),
    });
    dateFormats.set(key, format);
  }
  return format;
}
