import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  centsToDecimal,
  decimalToCents,
  decimalToScaled,
  divideHalfUp,
  formatMoney,
  formatMoneyCompact,
  scaledToDecimal,
} from "./money.ts";

describe("money", () => {
  it("divides half-up in integers", () => {
    expect(divideHalfUp(5, 2)).toBe(3);
    expect(divideHalfUp(7, 3)).toBe(2);
    expect(divideHalfUp(8, 3)).toBe(3);
    expect(divideHalfUp(-5, 2)).toBe(-2); // half-up is towards +∞
  });

  it("reads amounts people type, with . or , and at most 2 decimals", () => {
    expect(decimalToCents("12.5")).toBe(1250);
    expect(decimalToCents(" 12,05 ")).toBe(1205);
    expect(decimalToCents("12")).toBe(1200);
    expect(decimalToCents("12.345")).toBeNull();
    expect(decimalToCents("-1")).toBeNull();
    expect(decimalToCents("1e3")).toBeNull();
    expect(decimalToScaled("1.5", 3)).toBe(1500);
    expect(decimalToScaled("2", 0)).toBe(2);
    expect(decimalToScaled("2.5", 0)).toBeNull();
  });

  it("shows scaled values without trailing zeros, cents with two decimals", () => {
    expect(scaledToDecimal(1500, 3)).toBe("1.5");
    expect(scaledToDecimal(2000, 2)).toBe("20");
    expect(scaledToDecimal(-125, 3)).toBe("-0.125");
    expect(centsToDecimal(1205)).toBe("12.05");
    expect(centsToDecimal(-5)).toBe("-0.05");
  });

  it("reads back what it shows", () => {
    fc.assert(
      fc.property(fc.nat({ max: 1e12 }), fc.integer({ min: 0, max: 4 }), (value, decimals) => {
        expect(decimalToScaled(scaledToDecimal(value, decimals), decimals)).toBe(value);
        expect(decimalToCents(centsToDecimal(value))).toBe(value);
      }),
    );
  });
});

describe("formatMoney", () => {
  it("writes Swiss francs in each language, whichever language came before", () => {
    const [fr, en, frAgain, enAgain] = ["fr", "en", "fr", "en"].map((locale) => formatMoney(123456, locale));
    expect(fr).toMatch(/^1\D234\.56\sCHF$/);
    expect(en).toMatch(/^CHF\s1\D234\.56$/);
    expect([frAgain, enAgain]).toEqual([fr, en]);
  });

  it("writes a credit note's minus sign before the amount in both languages", () => {
    expect(formatMoney(-2000, "en")).toMatch(/^-CHF\s20\.00$/);
    expect(formatMoney(-123456, "en")).toMatch(/^-CHF\s1\D234\.56$/);
    expect(formatMoney(-2000, "fr")).toMatch(/^-20\.00\sCHF$/);
    expect(formatMoney(-5, "fr")).toMatch(/^-0\.05\sCHF$/);
  });

  it("speaks English for any other locale", () => {
    expect(formatMoney(50, "de")).toBe(formatMoney(50, "en"));
  });
});

describe("formatMoneyCompact", () => {
  it("writes an axis's amounts in a few characters in each language, decimals only where they tell", () => {
    expect([0, 50_000, 150_000, 1_000_000, 125_000_000].map((cents) => formatMoneyCompact(cents, "en"))).toEqual(
      ["CHF 0", "CHF 500", "CHF 1.5K", "CHF 10K", "CHF 1.3M"].map((text) => text.replace(" ", "\u00a0")),
    );
    expect(formatMoneyCompact(1_000_000, "fr")).toMatch(/^10\sk\sCHF$/);
    expect(formatMoneyCompact(-2000, "en")).toMatch(/^-CHF\s20$/);
  });
});
