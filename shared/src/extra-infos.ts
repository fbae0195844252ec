// Form fields ("extra infos", docs/specification.md §3, §5, §9): validation of one answer, the same on the API and in
// the ticket office. Pure: the reference date of `dateMajor` (the event's date) and today's date are passed in.
//
// Decisions:
// - Answers are normalised before they are stored: trimmed, `,` decimals as `.`, country codes upper-case,
//   email lists joined with ", ", the canonical spelling of a choice, "true"/"false" for booleans. An optional
//   field left empty is valid with the value "".
// - A required checkbox must be ticked (as HTML's `required` on a checkbox): "I accept the rules".
// - Dates are ISO as `<input type="date">` and `datetime-local` send them (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`,
//   optional seconds, a space accepted for the T), real calendar dates, years 1000 to 9999 (a typo like
//   "0198-05-01" is refused rather than stored).
// - Majority: someone born on D is N years old from the same month and day N years later. Someone born on
//   29 February becomes N on 1 March in a non-leap year: on 28 February they have not yet completed N years.
// - Text answers are bounded (TEXT_MAX_LENGTH, TEXTAREA_MAX_LENGTH characters) so that a form cannot store
//   megabytes; line breaks of a one-line text become spaces, a textarea's become "\n".

import { type ExtraInfoType, MAJORITY_AGE } from "./constants.ts";
import { COUNTRIES } from "./countries.ts";
import apiEnglish from "./i18n/en/api.json" with { type: "json" };

export const TEXT_MAX_LENGTH = 255;
export const TEXTAREA_MAX_LENGTH = 5_000;

/** The English texts, as api.json's `forms.errors` writes them (the one source, with the French). */
const FORM_ERRORS = apiEnglish.forms.errors;

/** English texts (the API's and the storefront's fallback) and their i18n keys (`{{max}}`, `{{age}}` values). */
export const EXTRA_INFO_MESSAGES = {
  required: { key: "forms.errors.required", en: FORM_ERRORS.required },
  email: { key: "forms.errors.email", en: FORM_ERRORS.email },
  phone: { key: "forms.errors.phone", en: FORM_ERRORS.phone },
  number: { key: "forms.errors.number", en: FORM_ERRORS.number },
  date: { key: "forms.errors.date", en: FORM_ERRORS.date },
  datetime: { key: "forms.errors.datetime", en: FORM_ERRORS.datetime },
  major: { key: "forms.errors.major", en: FORM_ERRORS.major },
  choice: { key: "forms.errors.choice", en: FORM_ERRORS.choice },
  country: { key: "forms.errors.country", en: FORM_ERRORS.country },
  boolean: { key: "forms.errors.boolean", en: FORM_ERRORS.boolean },
  tooLong: { key: "forms.errors.too_long", en: FORM_ERRORS.too_long },
} as const;
export type ExtraInfoProblem = keyof typeof EXTRA_INFO_MESSAGES;

export interface ExtraInfoField {
  type: ExtraInfoType;
  isRequired: boolean;
  /** the answers of a `choice` field */
  choices?: readonly string[] | null;
  /** `dateMajor`: the event's date, `YYYY-MM-DD` in the event's time zone (a longer ISO string: its date part) */
  majorReferenceDate?: string | null;
  /** `dateMajor`: the age to reach, MAJORITY_AGE unless the field says otherwise */
  majorityAge?: number | null;
}

export interface ExtraInfoContext {
  /** `YYYY-MM-DD`: the reference of a `dateMajor` field that has no date of its own */
  today?: string;
}

export type ExtraInfoResult =
  | { ok: true; value: string }
  | {
      ok: false;
      problem: ExtraInfoProblem;
      /** English, with its values filled in */
      message: string;
      messageKey: string;
      values?: Record<string, number>;
    };

function fail(problem: ExtraInfoProblem, values?: Record<string, number>): ExtraInfoResult {
  const { key, en } = EXTRA_INFO_MESSAGES[problem];
  const message = en.replace(/\{\{(\w+)\}\}/g, (match, name: string) => String(values?.[name] ?? match));
  return values
    ? { ok: false, problem, message, messageKey: key, values }
    : { ok: false, problem, message, messageKey: key };
}

const ok = (value: string): ExtraInfoResult => ({ ok: true, value });

// --- email -----------------------------------------------------------------------------------------------

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;
const TOP_LEVEL_DOMAIN = /^(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/iu;

/** One address: a dot-atom local part, and a domain of at least two labels ending in a real-looking TLD. */
export function isValidEmailAddress(address: string): boolean {
  if (address.length > 254) return false;
  const at = address.lastIndexOf("@");
  if (at <= 0) return false;
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split(".");
  const tld = labels[labels.length - 1] ?? "";
  return (
    local.length <= 64 &&
    LOCAL_PART.test(local) &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    TOP_LEVEL_DOMAIN.test(tld)
  );
}

/** One address or a comma-separated list (docs/specification.md §5); blank entries between commas are dropped. */
function validateEmails(input: string): ExtraInfoResult {
  const addresses = input
    .split(",")
    .map((address) => address.trim())
    .filter((address) => address !== "");
  if (addresses.length === 0 || !addresses.every(isValidEmailAddress)) return fail("email");
  // the domain is case-insensitive, the local part in theory is not: only the domain is lowered
  return ok(
    addresses
      .map((address) => {
        const at = address.lastIndexOf("@");
        return `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
      })
      .join(", "),
  );
}

// --- phone, number ---------------------------------------------------------------------------------------

const PHONE_CHARACTERS = /^\+?[\d\s()-]+$/;

/** Digits, spaces, `-`, `()` with a leading `+` allowed; 6 to 20 digits; parentheses paired, not nested. */
function validatePhone(input: string): ExtraInfoResult {
  if (!PHONE_CHARACTERS.test(input)) return fail("phone");
  const digits = input.replace(/\D/g, "").length;
  if (digits < 6 || digits > 20) return fail("phone");
  let open = false;
  for (const character of input) {
    if (character === "(") {
      if (open) return fail("phone");
      open = true;
    } else if (character === ")") {
      if (!open) return fail("phone");
      open = false;
    }
  }
  if (open) return fail("phone");
  return ok(input.replace(/\s+/g, " "));
}

/** docs/specification.md §5: digits, optionally `.` or `,` and at most 2 decimals; no sign. */
function validateNumber(input: string): ExtraInfoResult {
  return /^\d+(?:[.,]\d{1,2})?$/.test(input) ? ok(input.replace(",", ".")) : fail("number");
}

// --- dates -----------------------------------------------------------------------------------------------

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year); // Date.UTC maps years 0–99 to 1900–1999; set the year apart
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `YYYY-MM-DD` as a real calendar date, years 1000–9999; null otherwise. */
export function parseIsoDate(input: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return year >= 1000 && isRealDate(year, month, day) ? { year, month, day } : null;
}

function validateDatetime(input: string): ExtraInfoResult {
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(input);
  if (!match || !parseIsoDate(match[1] ?? "")) return fail("datetime");
  const [hours, minutes, seconds] = [Number(match[2]), Number(match[3]), Number(match[4] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return fail("datetime");
  return ok(input.replace(" ", "T"));
}

/** Whether someone born on `birth` is at least `age` years old on `reference`. */
export function isMajorOn(birth: CalendarDate, reference: CalendarDate, age: number = MAJORITY_AGE): boolean {
  const birthdayPassed =
    reference.month > birth.month || (reference.month === birth.month && reference.day >= birth.day);
  return reference.year - birth.year - (birthdayPassed ? 0 : 1) >= age;
}

function validateDateMajor(input: string, field: ExtraInfoField, context: ExtraInfoContext): ExtraInfoResult {
  const birth = parseIsoDate(input);
  if (!birth) return fail("date");
  const referenceText = (field.majorReferenceDate ?? context.today ?? "").slice(0, 10);
  const reference = parseIsoDate(referenceText);
  // a programming error, not a buyer's: the API always knows today's date
  if (!reference) throw new TypeError("dateMajor needs a reference date or today's date");
  const age = field.majorityAge ?? MAJORITY_AGE;
  return isMajorOn(birth, reference, age) ? ok(input) : fail("major", { age });
}

// --- choices ---------------------------------------------------------------------------------------------

const COUNTRY_CODES = new Set(COUNTRIES.map(([code]) => code));

function validateChoice(input: string, choices: readonly string[]): ExtraInfoResult {
  const exact = choices.find((choice) => choice.trim() === input);
  if (exact !== undefined) return ok(exact);
  // "vegetarian" for "Vegetarian" is the same answer, unless two choices differ only by case
  const folded = choices.filter((choice) => choice.trim().toLowerCase() === input.toLowerCase());
  return folded.length === 1 && folded[0] !== undefined ? ok(folded[0]) : fail("choice");
}

function validateBoolean(input: string, isRequired: boolean): ExtraInfoResult {
  const value = input.toLowerCase();
  if (value === "true" || value === "on") return ok("true");
  if (value === "" || value === "false") return isRequired ? fail("required") : ok("false");
  return fail("boolean");
}

function validateText(input: string, max: number): ExtraInfoResult {
  return [...input].length > max ? fail("tooLong", { max }) : ok(input);
}

/** Validates and normalises one answer to a form field; `raw` absent or blank is an empty answer. */
export function validateExtraInfo(
  field: ExtraInfoField,
  raw: string | null | undefined,
  context: ExtraInfoContext = {},
): ExtraInfoResult {
  const input = (raw ?? "").trim();
  // an unticked checkbox sends nothing: its emptiness is an answer ("false")
  if (field.type === "boolean") return validateBoolean(input, field.isRequired);
  if (input === "") return field.isRequired ? fail("required") : ok("");
  switch (field.type) {
    case "choice":
      return validateChoice(input, field.choices ?? []);
    case "country":
      return COUNTRY_CODES.has(input.toUpperCase()) ? ok(input.toUpperCase()) : fail("country");
    case "date":
      return parseIsoDate(input) ? ok(input) : fail("date");
    case "dateMajor":
      return validateDateMajor(input, field, context);
    case "datetime":
      return validateDatetime(input);
    case "email":
      return validateEmails(input);
    case "numerical":
      return validateNumber(input);
    case "phone":
      return validatePhone(input);
    case "text":
      return validateText(input.replace(/\s*[\r\n]+\s*/g, " "), TEXT_MAX_LENGTH);
    case "textarea":
      return validateText(input.replace(/\r\n?/g, "\n"), TEXTAREA_MAX_LENGTH);
  }
}
