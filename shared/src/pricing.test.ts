import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Condition } from "./conditions.ts";
import { PRICE_RULE_MODES, type PriceRuleMode } from "./constants.ts";
import {
  applyPriceRule,
  computePrice,
  type NodePriceRule,
  PRICE_INTERFACE_OPERATORS,
  type PriceRule,
  priceForNode,
  priceInterfaceOperatorOf,
  priceRuleModeOf,
  priceRuleValueFromInput,
  priceRuleValueToInput,
  selectPriceRules,
} from "./pricing.ts";

const rule = (mode: PriceRuleMode, value: number, order = 0, id = 1): PriceRule => ({ mode, value, order, id });

describe("one price rule", () => {
  it.each<[PriceRuleMode, number, number, number]>([
    ["set", 1000, 2500, 2500],
    ["set", 1000, 0, 0],
    ["plus", 1000, 250, 1250],
    ["minus", 1000, 250, 750],
    ["minus", 1000, 1500, 0],
    ["plus_percent", 1000, 2000, 1200], // +20 %
    ["plus_percent", 1005, 1000, 1106], // 1105.5 → 1106
    ["minus_percent", 1000, 2000, 800],
    ["minus_percent", 1005, 1000, 905], // 904.5 → 905: the result rounds half-up
    ["minus_percent", 1000, 15_000, 0], // 150 % off is free, not negative
    ["multiply", 1000, 1500, 1500], // × 1.5
    ["multiply", 333, 500, 167], // 166.5 → 167
    ["multiply", 1000, 0, 0],
    ["divide", 1000, 3000, 333], // ÷ 3
    ["divide", 1000, 6000, 167], // 166.67
    ["divide", 1000, 500, 2000], // ÷ 0.5
    ["divide", 1000, 0, 1000], // ÷ 0 leaves the price
  ])("%s from %i by %i gives %i", (mode, price, value, expected) => {
    expect(applyPriceRule(price, { mode, value })).toBe(expected);
  });
});

describe("folding rules", () => {
  it("starts at 0 and folds by order, then id, whatever the input order", () => {
    const rules = [rule("minus_percent", 1000, 2, 1), rule("set", 5000, 1, 9), rule("plus", 1000, 2, 0)];
    // set 50 → plus 10 (order 2, id 0) → minus 10 % (order 2, id 1) = 54
    expect(computePrice(rules)).toBe(5400);
    expect(computePrice([...rules].reverse())).toBe(5400);
    expect(computePrice([])).toBe(0);
  });

  it("floors every step at 0, not only the end", () => {
    expect(computePrice([rule("set", 1000, 0), rule("minus", 2000, 1), rule("plus", 500, 2)])).toBe(500);
  });
});

describe("price of a node", () => {
  const vipOnly: Condition = {
    logicalOperator: "and",
    statements: [{ leftHandOperand: "promotion_code", operator: "=", rightHandValue: "VIP", scope: "is" }],
  };
  const conditions = new Map([[7, vipOnly]]);
  const r = (id: number, mode: PriceRuleMode, value: number, order: number, extra: Partial<NodePriceRule> = {}) =>
    ({ id, mode, value, order, conditionId: null, shouldPropagate: false, ...extra }) satisfies NodePriceRule;
  const base = r(1, "set", 4000, 0);
  const discount = r(2, "minus_percent", 5000, 10, { conditionId: 7 });
  const groupSurcharge = r(3, "plus", 500, 5, { shouldPropagate: true });
  const notPropagated = r(4, "plus", 10_000, 6);
  const vip = { email: null, promotionCodes: ["vip"] };
  const nobody = { email: null, promotionCodes: [] };

  it("applies own rules, propagated ancestor rules, and conditional rules whose condition holds", () => {
    const input = { ownRules: [base, discount], ancestorRules: [groupSurcharge, notPropagated], conditions };
    expect(priceForNode({ ...input, visitor: nobody })).toBe(4500);
    expect(priceForNode({ ...input, visitor: vip })).toBe(2250);
    // the back office's base price skips conditional rules
    expect(priceForNode({ ...input, visitor: null })).toBe(4500);
  });

  it("applies an own rule even when it does not propagate, and a rule attached twice once", () => {
    const rules = selectPriceRules({
      ownRules: [base, notPropagated, groupSurcharge],
      ancestorRules: [groupSurcharge, groupSurcharge],
      visitor: nobody,
      conditions,
    });
    expect(rules.map((x) => x.id)).toEqual([1, 3, 4]);
  });

  it("skips a rule whose condition is not loaded", () => {
    const dangling = r(5, "set", 0, 99, { conditionId: 404 });
    expect(priceForNode({ ownRules: [base, dangling], ancestorRules: [], visitor: vip, conditions })).toBe(4000);
  });
});

describe("editor values", () => {
  it("maps the interface operators to modes and back", () => {
    expect(PRICE_INTERFACE_OPERATORS.map(priceRuleModeOf)).toEqual([
      "plus",
      "minus",
      "multiply",
      "divide",
      "set",
      "plus_percent",
      "minus_percent",
    ]);
    for (const mode of PRICE_RULE_MODES) expect(priceRuleModeOf(priceInterfaceOperatorOf(mode))).toBe(mode);
  });

  it.each<[PriceRuleMode, string, number | null]>([
    ["set", "12.50", 1250],
    ["plus", "12,5", 1250],
    ["minus", "3", 300],
    ["minus", "1.234", null],
    ["plus", "-5", null],
    ["plus_percent", "20", 2000],
    ["minus_percent", "12.5", 1250],
    ["minus_percent", "0.01", 1],
    ["minus_percent", "0.001", null],
    ["multiply", "1.5", 1500],
    ["multiply", "0.125", 125],
    ["divide", "3", 3000],
    ["divide", "0", null],
    ["set", "", null],
    ["set", "abc", null],
    ["set", "99999999999999999999", null],
  ])("%s %j → %j", (mode, input, expected) => {
    expect(priceRuleValueFromInput(mode, input)).toBe(expected);
  });

  it.each<[PriceRuleMode, number, string]>([
    ["set", 1250, "12.50"],
    ["plus", 5, "0.05"],
    ["plus_percent", 2000, "20"],
    ["minus_percent", 1250, "12.5"],
    ["multiply", 1500, "1.5"],
    ["divide", 125, "0.125"],
  ])("%s %i shows as %j", (mode, value, expected) => {
    expect(priceRuleValueToInput(mode, value)).toBe(expected);
  });
});

describe("pricing properties", () => {
  const mode = fc.constantFrom(...PRICE_RULE_MODES);
  const anyRule = fc.record({
    mode,
    value: fc.integer({ min: -200_000, max: 200_000 }),
    order: fc.integer({ min: 0, max: 5 }),
    id: fc.nat({ max: 1_000 }),
  });
  const price = fc.nat({ max: 10_000_000 });

  it("a price is never negative and always an integer", () => {
    fc.assert(
      fc.property(fc.array(anyRule, { maxLength: 8 }), (rules) => {
        const result = computePrice(rules);
        expect(Number.isInteger(result)).toBe(true);
        expect(result).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("a `set` rule makes every earlier rule irrelevant", () => {
    fc.assert(
      fc.property(
        fc.array(anyRule, { maxLength: 5 }),
        fc.nat({ max: 1_000_000 }),
        fc.array(anyRule, { maxLength: 5 }),
        (before, setValue, after) => {
          // order the three parts one after the other; ids keep them apart within a part
          const seq = (rules: PriceRule[], base: number) => rules.map((x, i) => ({ ...x, order: base, id: i }));
          const set = { mode: "set" as const, value: setValue, order: 10, id: 0 };
          const later = seq(after, 20);
          expect(computePrice([...seq(before, 0), set, ...later])).toBe(computePrice([set, ...later]));
        },
      ),
    );
  });

  it("plus then minus of the same amount is the identity (and minus then plus when the price covers it)", () => {
    fc.assert(
      fc.property(price, fc.nat({ max: 10_000_000 }), (p, amount) => {
        expect(
          applyPriceRule(applyPriceRule(p, { mode: "plus", value: amount }), { mode: "minus", value: amount }),
        ).toBe(p);
        if (p >= amount)
          expect(
            applyPriceRule(applyPriceRule(p, { mode: "minus", value: amount }), { mode: "plus", value: amount }),
          ).toBe(p);
      }),
    );
  });

  it("percent, multiply and divide round the exact result half-up to the cent", () => {
    const halfUp = (numerator: bigint, denominator: bigint) => (2n * numerator + denominator) / (2n * denominator);
    fc.assert(
      fc.property(price, fc.nat({ max: 100_000 }), (p, value) => {
        const big = BigInt(p);
        const v = BigInt(value);
        expect(applyPriceRule(p, { mode: "multiply", value })).toBe(Number(halfUp(big * v, 1000n)));
        expect(applyPriceRule(p, { mode: "plus_percent", value })).toBe(Number(halfUp(big * (10_000n + v), 10_000n)));
        if (value <= 10_000)
          expect(applyPriceRule(p, { mode: "minus_percent", value })).toBe(
            Number(halfUp(big * (10_000n - v), 10_000n)),
          );
        if (value > 0) expect(applyPriceRule(p, { mode: "divide", value })).toBe(Number(halfUp(big * 1000n, v)));
      }),
    );
  });

  it("an editor value shown and read back is the same stored value", () => {
    fc.assert(
      fc.property(mode, fc.nat({ max: 100_000_000 }), (m, value) => {
        if (m === "divide" && value === 0) return;
        expect(priceRuleValueFromInput(m, priceRuleValueToInput(m, value))).toBe(value);
      }),
    );
  });

  it("the order rules are given in does not matter", () => {
    fc.assert(
      fc.property(fc.uniqueArray(anyRule, { selector: (x) => x.id, maxLength: 6 }), (rules) => {
        expect(computePrice([...rules].reverse())).toBe(computePrice(rules));
      }),
    );
  });
});
