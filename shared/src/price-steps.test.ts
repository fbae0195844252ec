import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PRICE_RULE_DIRECTIONS, PRICE_RULE_MODES, type PriceRuleMode } from "./constants.ts";
import { basePriceOf, movePriceRuleWrites, noEffectOf, priceSteps } from "./price-steps.ts";
import { byOrderThenId, computePrice, type NodePriceRule } from "./pricing.ts";

const r = (id: number, mode: PriceRuleMode, value: number, order: number, extra: Partial<NodePriceRule> = {}) =>
  ({ id, mode, value, order, conditionId: null, shouldPropagate: false, ...extra }) satisfies NodePriceRule;

describe("an element's price, step by step", () => {
  // Issue 28 #5: the group's "+5 (applies to the elements below)" made before the child's "set the price to 20".
  const groupPlus = r(1, "plus", 500, 0, { shouldPropagate: true });
  const childSet = r(2, "set", 2000, 1);

  it("lists the inherited rule where it is folded, marks where it comes from and flags it as overridden", () => {
    const steps = priceSteps({ ownRules: [childSet], ancestors: [{ nodeId: 10, rules: [groupPlus] }] });
    expect(steps.map((step) => [step.rule.id, step.from, step.priceAfter])).toEqual([
      [1, 10, 500],
      [2, null, 2000],
    ]);
    expect(steps[0]?.noEffect).toEqual({ reason: "overridden", by: childSet });
    expect(steps[1]?.noEffect).toBeNull();
  });

  it("once the set comes first, the surcharge counts and nothing is flagged", () => {
    const steps = priceSteps({
      ownRules: [{ ...childSet, order: 0 }],
      ancestors: [{ nodeId: 10, rules: [{ ...groupPlus, order: 1 }] }],
    });
    expect(steps.map((step) => [step.rule.id, step.priceAfter, step.noEffect])).toEqual([
      [2, 2000, null],
      [1, 2500, null],
    ]);
  });

  it("names the last set that overrides, the one to move the rule below", () => {
    const rules = [r(1, "minus_percent", 1000, 0), r(2, "set", 2000, 1), r(3, "set", 3000, 2)];
    expect(noEffectOf(rules, 0)).toEqual({ reason: "overridden", by: rules[2] });
    expect(noEffectOf(rules, 1)).toEqual({ reason: "overridden", by: rules[2] });
    expect(noEffectOf(rules, 2)).toBeNull();
  });

  it("a later set that only applies under a condition does not make a rule ineffective", () => {
    const rules = [r(1, "set", 2000, 0), r(2, "plus", 500, 1), r(3, "set", 1000, 2, { conditionId: 7 })];
    expect(rules.map((_, index) => noEffectOf(rules, index))).toEqual([null, null, null]);
  });

  it("a lowering or scaling rule before anything gives a price changes 0 into 0", () => {
    const rules = [r(1, "minus_percent", 1000, 0, { shouldPropagate: true }), r(2, "plus", 2000, 1)];
    expect(noEffectOf(rules, 0)).toEqual({ reason: "zero_price" });
    expect(noEffectOf(rules, 1)).toBeNull();
    // after a conditional price it may count (for the buyers the condition holds for)
    const conditional = [r(1, "set", 2000, 0, { conditionId: 7 }), r(2, "minus", 500, 1)];
    expect(noEffectOf(conditional, 1)).toBeNull();
    // a "set the price to 0" is what the organiser means, never flagged; what follows it on 0 is
    const free = [r(1, "set", 0, 0), r(2, "multiply", 2000, 1)];
    expect([noEffectOf(free, 0), noEffectOf(free, 1)]).toEqual([null, { reason: "zero_price" }]);
  });

  it("a conditional rule has no base-price figure, and the base price runs past it", () => {
    const steps = priceSteps({
      ownRules: [r(1, "set", 4000, 0), r(2, "minus_percent", 2000, 1, { conditionId: 7 }), r(3, "plus", 100, 2)],
      ancestors: [],
    });
    expect(steps.map((step) => step.priceAfter)).toEqual([4000, null, 4100]);
  });

  it("an own rule stays own when an ancestor propagates it too; the nearest ancestor is named", () => {
    const shared = r(5, "plus", 100, 3, { shouldPropagate: true });
    const steps = priceSteps({
      ownRules: [childSet, shared],
      ancestors: [
        { nodeId: 11, rules: [groupPlus, shared] },
        { nodeId: 10, rules: [groupPlus, r(6, "plus", 1, 4)] }, // not propagated: not listed
      ],
    });
    expect(steps.map((step) => [step.rule.id, step.from])).toEqual([
      [1, 11],
      [2, null],
      [5, null],
    ]);
  });
});

describe("moving a rule in one element's list", () => {
  // Event order: A(0) B(1) C(2) D(3); the element sees A, C, D (B prices another element).
  const event = [
    { id: 1, order: 0 },
    { id: 2, order: 1 },
    { id: 3, order: 2 },
    { id: 4, order: 3 },
  ];
  const apply = (rules: typeof event, writes: { id: number; order: number }[]) =>
    rules
      .map((rule) => ({ ...rule, order: writes.find((w) => w.id === rule.id)?.order ?? rule.order }))
      .sort(byOrderThenId)
      .map((rule) => rule.id);

  it("goes right before its neighbour (up) or after it (down); the others keep their places", () => {
    const up = movePriceRuleWrites(event, [1, 3, 4], 3, "up");
    expect(apply(event, up ?? [])).toEqual([3, 1, 2, 4]);
    const down = movePriceRuleWrites(event, [1, 3, 4], 1, "down");
    expect(apply(event, down ?? [])).toEqual([2, 3, 1, 4]);
  });

  it("refuses at the ends and for a rule that is not in the list", () => {
    expect(movePriceRuleWrites(event, [1, 3, 4], 1, "up")).toBeNull();
    expect(movePriceRuleWrites(event, [1, 3, 4], 4, "down")).toBeNull();
    expect(movePriceRuleWrites(event, [1, 3, 4], 2, "up")).toBeNull();
  });

  it("makes equal orders dense", () => {
    const tied = [
      { id: 7, order: 0 },
      { id: 8, order: 0 },
    ];
    // 8 keeps its 0; only 7 is written
    expect(movePriceRuleWrites(tied, [7, 8], 8, "up")).toEqual([{ id: 7, order: 1 }]);
  });
});

describe("price step properties", () => {
  const mode = fc.constantFrom(...PRICE_RULE_MODES);
  /** A folded list: ids 1…n in order, each rule conditional (its own condition) or not. */
  const folded = fc
    .array(fc.record({ mode, value: fc.nat({ max: 20_000 }), isConditional: fc.boolean(), holds: fc.boolean() }), {
      minLength: 1,
      maxLength: 8,
    })
    .map((drafts) =>
      drafts.map((draft, index) => ({
        ...r(index + 1, draft.mode, draft.value, index, { conditionId: draft.isConditional ? index + 1 : null }),
        holds: !draft.isConditional || draft.holds,
      })),
    );

  it("a rule flagged as having no effect changes no buyer's price, whichever conditions hold", () => {
    fc.assert(
      fc.property(folded, (rules) => {
        for (const [index, rule] of rules.entries()) {
          if (!noEffectOf(rules, index)) continue;
          // the buyer's price: the rules whose condition holds for them
          const applied = rules.filter((candidate) => candidate.holds);
          expect(computePrice(applied.filter((candidate) => candidate.id !== rule.id))).toBe(computePrice(applied));
        }
      }),
    );
  });

  it("the steps come to the base price the fold gives", () => {
    fc.assert(
      fc.property(folded, (rules) => {
        const steps = priceSteps({ ownRules: rules, ancestors: [] });
        expect(basePriceOf(steps)).toBe(computePrice(rules.filter((rule) => rule.conditionId === null)));
      }),
    );
  });

  it("a move swaps the rule with its neighbour in the list, keeps every other pair's order and stays dense", () => {
    const eventOrders = fc
      .array(fc.nat({ max: 4 }), { minLength: 2, maxLength: 9 })
      .map((orders) => orders.map((order, index) => ({ id: index + 1, order })));
    fc.assert(
      fc.property(
        eventOrders,
        fc.infiniteStream(fc.boolean()),
        fc.nat(),
        fc.constantFrom(...PRICE_RULE_DIRECTIONS),
        (rules, inView, pick, direction) => {
          const before = [...rules].sort(byOrderThenId).map((rule) => rule.id);
          const take = [...inView.take(rules.length)];
          const view = before.filter((_, index) => take[index]);
          const id = view[pick % Math.max(1, view.length)];
          if (id === undefined) return;
          const writes = movePriceRuleWrites(rules, view, id, direction);
          const index = view.indexOf(id);
          const atEnd = direction === "up" ? index === 0 : index === view.length - 1;
          if (atEnd) {
            expect(writes).toBeNull();
            return;
          }
          const moved = rules.map((rule) => ({
            ...rule,
            order: writes?.find((write) => write.id === rule.id)?.order ?? rule.order,
          }));
          const after = [...moved].sort(byOrderThenId).map((rule) => rule.id);
          expect(moved.map((rule) => rule.order).sort((a, b) => a - b)).toEqual(rules.map((_, i) => i));
          const swapped = [...view];
          const other = index + (direction === "up" ? -1 : 1);
          [swapped[index], swapped[other]] = [swapped[other] as number, swapped[index] as number];
          expect(after.filter((ruleId) => view.includes(ruleId))).toEqual(swapped);
          const others = before.filter((ruleId) => ruleId !== id);
          expect(after.filter((ruleId) => ruleId !== id)).toEqual(others);
        },
      ),
    );
  });
});
