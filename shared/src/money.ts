// Money is integer cents (docs/design.md §4). Percent, multiply and divide round half-up to the cent.

/** `numerator / denominator` rounded half-up, in integers only (no floating-point drift on cents). */
export function divideHalfUp(numerator: number, denominator: number): number {
  const quotient = Math.floor(numerator / denominator);
  const remainder = numerator - quotient * denominator;
  return 2 * remainder >= denominator ? quotient + 1 : quotient;
}

/** `1234` → `"12.34"`: a plain decimal string, used in forms and exports. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Parses `"12.5"`, `"12,50"` or `"12"` into cents; null when it is not an amount with at most 2 decimals. */
export function decimalToCents(input: string): number | null {
  return decimalToScaled(input, 2);
}

/**
 * A non-negative decimal written by a person (`.` or `,`, at most `decimals` decimals) as an integer in units of
 * 10^-decimals: `("12.5", 2)` → 1250, `("1,5", 3)` → 1500. Null when it is not such a number, or too large to be
 * exact in a JavaScript number.
 */
export function decimalToScaled(input: string, decimals: number): number | null {
  const match = /^\s*(\d+)(?:[.,](\d+))?\s*$/.exec(input);
  if (!match || (match[2] ?? "").length > decimals) return null;
  const scaled = Number(match[1]) * 10 ** decimals + Number((match[2] ?? "").padEnd(decimals, "0") || "0");
  return Number.isSafeInteger(scaled) ? scaled : null;
}

/** The inverse of `decimalToScaled`, without trailing zeros: `(1500, 3)` → `"1.5"`, `(2000, 2)` → `"20"`. */
export function scaledToDecimal(value: number, decimals: number): string {
  const sign = value < 0 ? "-" : "";
  const abs = Math.abs(value);
  const unit = 10 ** decimals;
  const fraction = String(abs % unit)
    .padStart(decimals, "0")
    .replace(/0+$/, "");
  return `${sign}${Math.floor(abs / unit)}${fraction ? `.${fraction}` : ""}`;
}

// Built once per locale: building an Intl.NumberFormat costs far more than formatting with it, and a page shows
// many prices.
const moneyFormats = {
  fr: new Intl.NumberFormat("fr-CH", { style: "currency", currency: "CHF" }),
  en: new Intl.NumberFormat("en-CH", { style: "currency", currency: "CHF" }),
};
const compactOptions = {
  style: "currency",
  currency: "CHF",
  notation: "compact",
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
} as const;
const compactMoneyFormats = {
  fr: new Intl.NumberFormat("fr-CH", compactOptions),
  en: new Intl.NumberFormat("en-CH", compactOptions),
};

/**
 * Cents in one of `formats`, a negative amount with its minus sign first in both languages (`-CHF 20.00` /
 * `-20.00 CHF`): CLDR's en-CH pattern puts it between the currency and the number (`CHF-20.00`), which reads as a
 * code, not an amount.
 */
function signed(formats: typeof moneyFormats, cents: number, locale: string): string {
  const format = formats[locale === "fr" ? "fr" : "en"];
  return cents < 0 ? `-${format.format(-cents / 100)}` : format.format(cents / 100);
}

/** Formats cents for people: `CHF 12.50` / `12.50 CHF`; a credit note's `-CHF 20.00` / `-20.00 CHF`. */
export function formatMoney(cents: number, locale: string): string {
  return signed(moneyFormats, cents, locale);
}

/**
 * Cents in a few characters, where room is short (a chart's axis): `CHF 500`, `CHF 1.5K` / `500 CHF`, `1.5 k CHF`.
 * The exact amount goes where there is room for it (formatMoney).
 */
export function formatMoneyCompact(cents: number, locale: string): string {
  return signed(compactMoneyFormats, cents, locale);
}
