// Price computation (DESIGN.md 4 "Price"): pure, no I/O. Integer cents, half-up rounding, floor 0.
import type { PriceRuleMode } from "./constants.ts";
import { divideHalfUp } from "./money.ts";

export interface PriceRule {
  mode: PriceRuleMode;
  /** cents for set/plus/minus; hundredths of a percent for the percents; thousandths for multiply/divide */
  value: number;
  order: number;
  id: number;
}

export function applyPriceRule(price: number, rule: Pick<PriceRule, "mode" | "value">): number {
  const { value } = rule;
  let next: number;
  switch (rule.mode) {
    case "set":
      next = value;
      break;
    case "plus":
      next = price + value;
      break;
    case "minus":
      next = price - value;
      break;
    case "plus_percent":
      next = price + divideHalfUp(price * value, 10_000);
      break;
    case "minus_percent":
      next = price - divideHalfUp(price * value, 10_000);
      break;
    case "multiply":
      next = divideHalfUp(price * value, 1_000);
      break;
    case "divide":
      next = value === 0 ? price : divideHalfUp(price * 1_000, value);
      break;
  }
  return Math.max(0, next);
}

/** Folds the applicable rules in `order` (then id), starting at 0. */
export function computePrice(rules: Pick<PriceRule, "mode" | "value" | "order" | "id">[]): number {
  return [...rules]
    .sort((a, b) => a.order - b.order || a.id - b.id)
    .reduce((price, rule) => applyPriceRule(price, rule), 0);
}
