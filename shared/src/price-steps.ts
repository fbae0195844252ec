// An element's price, step by step, as the editor shows it (docs/decisions/0032): the rules that price it in the
// order they are folded, where each comes from, the base price after each, and which of them can change no
// buyer's price because of where they stand. Also the one way the order of rules is changed. Pure.
//
// Decisions:
// - A rule "has no effect" only when that holds for EVERY buyer, whichever conditions hold, so a warning is never
//   wrong: (1) a later "set the price to" without a condition replaces whatever the price was, or (2) it
//   lowers or scales the price (minus, percentages, multiply, divide) while nothing before it can give a price
//   above 0 (no earlier "set" or "add" of more than 0, conditional or not): it always changes 0 into 0.
// - Rules have one `order` per event (rules are shared by elements). Moving a rule up or down in one element's
//   list puts it right before or after its neighbour there; every other rule keeps its place, so the order of
//   two rules neither of which moved never changes, for any element.
import type { PriceRuleDirection, PriceRuleMode } from "./constants.ts";
import { applyPriceRule, attachedPriceRules, byOrderThenId, type NodePriceRule, type PriceRule } from "./pricing.ts";

/** Why a rule changes no buyer's price for an element. */
export type NoEffect<R> =
  /** `by` comes later, always applies and sets the price: the last such rule, the one to move this rule below */
  | { reason: "overridden"; by: R }
  /** no rule before it can give a price above 0, and it lowers or scales the price: 0 stays 0 */
  | { reason: "zero_price" };

export interface PriceStep<R> {
  rule: R;
  /** null: linked to the element itself; otherwise the nearest ancestor (node id) that propagates it */
  from: number | null;
  /** the base price (cents) after this rule; null for a conditional rule, which the base price skips */
  priceAfter: number | null;
  noEffect: NoEffect<R> | null;
}

export interface PriceStepsInput<R extends NodePriceRule> {
  /** the rules linked to the element's own configuration */
  ownRules: readonly R[];
  /** the element's ancestors, nearest first, with the rules linked to their configurations */
  ancestors: readonly { nodeId: number; rules: readonly R[] }[];
}

/** Modes whose result is 0 when the price they apply to is 0. */
const KEEPS_ZERO: ReadonlySet<PriceRuleMode> = new Set([
  "minus",
  "plus_percent",
  "minus_percent",
  "multiply",
  "divide",
]);

type Folded = Pick<PriceRule, "mode" | "value"> & { conditionId: number | null };

/** Why the rule at `index` of an element's folded rules (sorted as folded) changes no buyer's price; or null. */
export function noEffectOf<R extends Folded>(rules: readonly R[], index: number): NoEffect<R> | null {
  const rule = rules[index];
  if (!rule) return null;
  const later = rules.slice(index + 1);
  const by = later.findLast((candidate) => candidate.mode === "set" && candidate.conditionId === null);
  if (by) return { reason: "overridden", by };
  const givesAPrice = (earlier: R) => (earlier.mode === "set" || earlier.mode === "plus") && earlier.value > 0;
  if (KEEPS_ZERO.has(rule.mode) && !rules.slice(0, index).some(givesAPrice)) return { reason: "zero_price" };
  return null;
}

/** The steps of an element's price: every rule that may apply to it, in the order they are folded. */
export function priceSteps<R extends NodePriceRule>(input: PriceStepsInput<R>): PriceStep<R>[] {
  const own = new Set(input.ownRules.map((rule) => rule.id));
  const from = new Map<number, number>();
  for (const ancestor of input.ancestors)
    for (const rule of ancestor.rules)
      if (rule.shouldPropagate && !own.has(rule.id) && !from.has(rule.id)) from.set(rule.id, ancestor.nodeId);
  const rules = attachedPriceRules(
    input.ownRules,
    input.ancestors.flatMap((ancestor) => ancestor.rules),
  );
  let price = 0;
  return rules.map((rule, index) => {
    const isBase = rule.conditionId === null;
    if (isBase) price = applyPriceRule(price, rule);
    return {
      rule,
      from: from.get(rule.id) ?? null,
      priceAfter: isBase ? price : null,
      noEffect: noEffectOf(rules, index),
    };
  });
}

/** The base price the steps come to (cents): the figure after the last rule without a condition, else 0. */
export const basePriceOf = (steps: readonly Pick<PriceStep<unknown>, "priceAfter">[]): number =>
  steps.findLast((step) => step.priceAfter !== null)?.priceAfter ?? 0;

/**
 * Moves rule `id` one place up or down in `view` (the ids of the rules pricing one element, as folded): it goes
 * right before (up) or after (down) its neighbour there, and every other rule of the event keeps its place. The
 * answer is the event's new dense orders (0, 1, 2…) that differ from the current ones; null when the rule is not
 * in the view, or already first (up) or last (down) there.
 */
export function movePriceRuleWrites(
  eventRules: readonly Pick<PriceRule, "id" | "order">[],
  view: readonly number[],
  id: number,
  direction: PriceRuleDirection,
): { id: number; order: number }[] | null {
  const index = view.indexOf(id);
  const neighbour = view[index + (direction === "up" ? -1 : 1)];
  const sorted = [...eventRules].sort(byOrderThenId);
  if (index < 0 || neighbour === undefined || !sorted.some((rule) => rule.id === id)) return null;
  const ids = sorted.map((rule) => rule.id).filter((other) => other !== id);
  const at = ids.indexOf(neighbour);
  if (at < 0) return null;
  ids.splice(direction === "up" ? at : at + 1, 0, id);
  const current = new Map(sorted.map((rule) => [rule.id, rule.order]));
  return ids.flatMap((ruleId, order) => (current.get(ruleId) === order ? [] : [{ id: ruleId, order }]));
}
