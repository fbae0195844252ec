// Money is integer cents (DESIGN.md 4). Percent, multiply and divide round half-up to the cent.

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
  const match = /^\s*(\d+)(?:[.,](\d{1,2}))?\s*$/.exec(input);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** Formats cents for people: `CHF 12.50` / `12,50 CHF`. */
export function formatMoney(cents: number, locale: string): string {
  return new Intl.NumberFormat(locale === "fr" ? "fr-CH" : "en-CH", { style: "currency", currency: "CHF" }).format(
    cents / 100,
  );
}
