import { formatMoney } from "@ticketing/shared/money";

// Dates are shown in the events' time zone so that server and browser render the same text.
const TIME_ZONE = "Europe/Zurich";
const dateLocale = (language: string) => (language === "fr" ? "fr-CH" : "en-GB");

/** `12 June 2027, 18:00 – 13 June 2027, 02:00`, shortened by Intl when both ends share a day. */
export function formatDateRange(start: string, end: string, language: string) {
  const format = new Intl.DateTimeFormat(dateLocale(language), {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: TIME_ZONE,
  });
  // ICU versions differ on the spaces around the dash (Node: thin spaces, Chromium: plain ones); one
  // spelling keeps the server's HTML and the browser's hydration identical.
  return format.formatRange(new Date(start), new Date(end)).replace(/\u2009/g, " ");
}

export function formatTime(date: string, language: string) {
  return new Intl.DateTimeFormat(dateLocale(language), { timeStyle: "short", timeZone: TIME_ZONE }).format(
    new Date(date),
  );
}

export { formatMoney };
