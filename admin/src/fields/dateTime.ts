import type { Language } from "@ticketing/shared/constants";

/**
 * What the date-time pickers show per interface language: French as written in Switzerland
 * (24.12.2026 18:00, 24-hour clock), English as in docs/specification.md §1's default locale en-US.
 */
export const PICKER_FORMATS = {
  en: "MM/dd/yyyy hh:mm aa",
  fr: "dd.MM.yyyy HH:mm",
} as const satisfies Record<Language, string>;

/**
 * How lists show a moment: to the minute, as the pickers write it (24.12.2026 18:00 in fr-CH, 12/24/2026, 06:00 PM
 * in en-US); seconds mean nothing in a schedule.
 */
export const TO_THE_MINUTE: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
};

/** The picker's value of a wire value (ISO 8601); null when empty. An unreadable string stays an invalid date. */
export function isoToPickerValue(value: unknown): Date | null {
  if (value instanceof Date) return value;
  if (typeof value !== "string" || value === "") return null;
  return new Date(value);
}

/**
 * The wire value of a picked date: ISO 8601 in UTC (docs/api.md), null when cleared. A date still being typed
 * (some sections empty) stays an invalid Date so that validateDateTime can hold the form back, instead of
 * sending nothing and losing what the user meant.
 */
export function pickerValueToIso(date: Date | null): string | Date | null {
  if (date === null) return null;
  return Number.isNaN(date.getTime()) ? date : date.toISOString();
}

/** Refuses a date the user has not finished typing (or typed impossibly, like 31.02.). */
export const validateDateTime = (value: unknown): string | undefined =>
  value instanceof Date && Number.isNaN(value.getTime()) ? "admin.dateTimeInput.invalid" : undefined;
