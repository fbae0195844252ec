// Stock display (DESIGN.md 4 "Stock"): pure.
import type { StockDisplay } from "./constants.ts";

export function stockDisplay(remaining: number, maximum: number): StockDisplay {
  if (remaining <= 0) return "out_of_stock";
  if (remaining <= 5 || remaining * 10 <= maximum) return "low";
  return "available";
}
