// Price computation (docs/design.md §4 "Price"): pure, no I/O. Integer cents, half-up rounding, floor 0.
//
// Decisions:
// - Percent, multiply and divide round the RESULTING price half-up to the cent (`price × (100 % − p)` for
//   minus_percent), so 10 % off 10.05 is 9.05 (9.045 rounded up), not 9.04 as "round the discount, then
//   subtract" would give. plus_percent is the same either way.
// - Every step is floored at 0, not only the end result: "minus 20, then plus 5" on a price of 10 is 5, the way
//   an organiser reading the rules top to bottom expects.
// - Divide by 0 leaves the price unchanged (the editor refuses it; an old rule must not break the ticket office).
// - Rule values are integers (the column is an integer); with integer inputs every result is an integer.
import { type Condition, conditionHolds, type Visitor } from "./conditions.ts";
import type { PriceRuleMode } from "./constants.ts";
import { centsToDecimal, decimalToScaled, divideHalfUp, scaledToDecimal } from "./money.ts";

export interface PriceRule {
  mode: PriceRuleMode;
  /** cents for set/plus/minus; hundredths of a percent for the percents; thousandths for multiply/divide */
  value: number;
  order: number;
  id: number;
}

/** A stored rule as pricing needs it: which condition gates it, whether it reaches the descendants. */
export interface NodePriceRule extends PriceRule {
  conditionId: number | null;
  shouldPropagate: boolean;
}

const PERCENT = 10_000; // hundredths of a percent in 100 %
const FACTOR = 1_000; // thousandths in a factor of 1

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
      next = divideHalfUp(price * (PERCENT + value), PERCENT);
      break;
    case "minus_percent":
      next = divideHalfUp(price * (PERCENT - value), PERCENT);
      break;
    case "multiply":
      next = divideHalfUp(price * value, FACTOR);
      break;
    case "divide":
      next = value === 0 ? price : divideHalfUp(price * FACTOR, value);
      break;
  }
  return Math.max(0, next);
}

/** The fold's order: `order`, then id for rules of the same `order`. */
export const byOrderThenId = (a: Pick<PriceRule, "order" | "id">, b: Pick<PriceRule, "order" | "id">) =>
  a.order - b.order || a.id - b.id;

/** Folds the applicable rules in `order` (then id), starting at 0. */
export function computePrice(rules: Pick<PriceRule, "mode" | "value" | "order" | "id">[]): number {
  return [...rules].sort(byOrderThenId).reduce((price, rule) => applyPriceRule(price, rule), 0);
}

export interface PriceForNodeInput<R extends NodePriceRule> {
  /** Rules linked to the node's own configuration: they apply whether or not they propagate. */
  ownRules: readonly R[];
  /** Rules linked to the configurations of the node's ancestors, any depth: only the propagating ones apply. */
  ancestorRules: readonly R[];
  /** null: the back office's base price, without conditional rules. */
  visitor: Visitor | null;
  conditions: ReadonlyMap<number, Condition>;
}

/**
 * The rules that price a node, sorted as they are folded. A rule linked both to the node and to an ancestor (or
 * to two ancestors) applies once: it is one rule, attached twice.
 */
export function selectPriceRules<R extends NodePriceRule>(input: PriceForNodeInput<R>): R[] {
  return attachedPriceRules(input.ownRules, input.ancestorRules).filter((rule) =>
    conditionHolds(rule.conditionId, input.conditions, input.visitor),
  );
}

/**
 * Every rule that may price a node, whatever the visitor, sorted as they are folded: its own rules, and its
 * ancestors' propagating ones, each once (the first one given wins: own before the ancestors').
 */
export function attachedPriceRules<R extends NodePriceRule>(ownRules: readonly R[], ancestorRules: readonly R[]): R[] {
  const attached = new Map<number, R>();
  for (const rule of [...ownRules, ...ancestorRules.filter((candidate) => candidate.shouldPropagate)])
    if (!attached.has(rule.id)) attached.set(rule.id, rule);
  return [...attached.values()].sort(byOrderThenId);
}

/** A node's price in cents for a visitor (docs/design.md §4 "Price"). */
export function priceForNode(input: PriceForNodeInput<NodePriceRule>): number {
  return computePrice(selectPriceRules(input));
}

/** The price operators the editor shows (docs/specification.md §9), one per stored mode. */
export const PRICE_INTERFACE_OPERATORS = [
  "add",
  "subtract",
  "multiply",
  "divide",
  "equals",
  "addPercent",
  "subtractPercent",
] as const;
export type PriceInterfaceOperator = (typeof PRICE_INTERFACE_OPERATORS)[number];

const MODE_OF: Record<PriceInterfaceOperator, PriceRuleMode> = {
  add: "plus",
  subtract: "minus",
  multiply: "multiply",
  divide: "divide",
  equals: "set",
  addPercent: "plus_percent",
  subtractPercent: "minus_percent",
};

export function priceRuleModeOf(operator: PriceInterfaceOperator): PriceRuleMode {
  return MODE_OF[operator];
}

export function priceInterfaceOperatorOf(mode: PriceRuleMode): PriceInterfaceOperator {
  const operator = PRICE_INTERFACE_OPERATORS.find((name) => MODE_OF[name] === mode);
  if (!operator) throw new RangeError(`unknown price rule mode ${mode}`);
  return operator;
}

/** How many decimals a person types for a mode's value: CHF cents, percent with 2 decimals, factor with 3. */
export function priceRuleValueDecimals(mode: PriceRuleMode): number {
  switch (mode) {
    case "set":
    case "plus":
    case "minus":
    case "plus_percent":
    case "minus_percent":
      return 2;
    case "multiply":
    case "divide":
      return 3;
  }
}

/**
 * A value typed in the editor (`"12.50"` CHF, `"20"` %, `"1.5"` ×) as the stored integer; null when it is not a
 * non-negative number with at most the mode's decimals, or is a division by 0. The sign comes from the mode
 * (subtract, not add −5).
 */
export function priceRuleValueFromInput(mode: PriceRuleMode, input: string): number | null {
  const value = decimalToScaled(input, priceRuleValueDecimals(mode));
  if (value === null || (mode === "divide" && value === 0)) return null;
  return value;
}

/** The stored integer as the editor shows it: 1250 cents → "12.50"; 2000 (20 %) → "20"; 1500 (× 1.5) → "1.5". */
export function priceRuleValueToInput(mode: PriceRuleMode, value: number): string {
  // amounts always show their cents, as prices do
  if (mode === "set" || mode === "plus" || mode === "minus") return centsToDecimal(value);
  return scaledToDecimal(value, priceRuleValueDecimals(mode));
}
