// Stock display (docs/design.md §4 "Stock"): pure.
import { STOCK_DISPLAYS, type StockDisplay } from "./constants.ts";

/** Out of stock at 0 (or below, after a limit was lowered), low at ≤ 10 % of the maximum or ≤ 5 left. */
export function stockDisplay(remaining: number, maximum: number): StockDisplay {
  if (remaining <= 0) return "out_of_stock";
  if (remaining <= 5 || remaining * 10 <= maximum) return "low";
  return "available";
}

export interface StockLevel {
  maximum: number;
  remaining: number;
}

/**
 * Over the limits linked to one article (each a shared quota): the limit with the fewest tickets left, which
 * bounds what can be bought, and the most alarming display among them. The two can come from different limits:
 * 60 left of 1,000 is "low" although another limit has only 40 left of 50, and a buyer should see "low".
 * Null when the article has no limit (unlimited).
 */
export function tightestStock<T extends StockLevel>(
  limits: readonly T[],
): { limit: T; remaining: number; display: StockDisplay } | null {
  let tightest: T | null = null;
  let display: StockDisplay = "available";
  for (const limit of limits) {
    if (tightest === null || limit.remaining < tightest.remaining) tightest = limit;
    const own = stockDisplay(limit.remaining, limit.maximum);
    // STOCK_DISPLAYS runs from the most to the least alarming
    if (STOCK_DISPLAYS.indexOf(own) < STOCK_DISPLAYS.indexOf(display)) display = own;
  }
  return tightest === null ? null : { limit: tightest, remaining: tightest.remaining, display };
}
