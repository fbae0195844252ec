import { formatMoney } from "@ticketing/shared/money";
import { LRUCache } from "lru-cache";

// Dates are shown in the events' time zone so that server and browser render the same text.
const TIME_ZONE = "Europe/Zurich";
const dateLocale = (language: string) => (language === "fr" ? "fr-CH" : "en-GB");

/**
 * A formatter per locale, built on first use and kept: building an Intl formatter costs far more than formatting
 * with it (it was the largest single cost of the welcome page). Two locales, so two entries per kind.
 */
function formatterCache(options: Intl.DateTimeFormatOptions) {
  const formats = new Map<string, Intl.DateTimeFormat>();
  return (language: string) => {
    const locale = dateLocale(language);
    let format = formats.get(locale);
    if (!format) {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone: TIME_ZONE });
      formats.set(locale, format);
    }
    return format;
  };
}

const dateTimeFormat = formatterCache({ dateStyle: "long", timeStyle: "short" });
const timeFormat = formatterCache({ timeStyle: "short" });

/**
 * Ranges already written, by language and ends: formatRange stays costly with a kept formatter (ICU builds its
 * interval format per call), and every page of an event writes the same range. The text depends on nothing else,
 * so a kept one is always right; the least recently used go first past a bound.
 */
const writtenRanges = new LRUCache<string, string>({ max: 1000 });

/** `12 June 2027, 18:00 – 13 June 2027, 02:00`, shortened by Intl when both ends share a day. */
export function formatDateRange(start: string, end: string, language: string) {
  const key = `${dateLocale(language)} ${start} ${end}`;
  let written = writtenRanges.get(key);
  if (written === undefined) {
    // ICU versions differ on the spaces around the dash (Node: thin spaces, Chromium: plain ones); one
    // spelling keeps the server's HTML and the browser's hydration identical.
    written = dateTimeFormat(language)
      .formatRange(new Date(start), new Date(end))
      .replace(/\u2009/g, " ");
    writtenRanges.set(key, written);
  }
  return written;
}

export function formatTime(date: string, language: string) {
  return timeFormat(language).format(new Date(date));
}

export { formatMoney };
