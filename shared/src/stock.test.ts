import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STOCK_DISPLAYS, type StockDisplay } from "./constants.ts";
import { stockDisplay, tightestStock } from "./stock.ts";

describe("stock display", () => {
  it.each([
    [0, 100, "out_of_stock"],
    [-3, 100, "out_of_stock"],
    [0, 0, "out_of_stock"],
    [1, 100, "low"],
    [5, 1000, "low"],
    [10, 100, "low"], // 10 %
    [11, 100, "available"],
    [100, 1000, "low"],
    [101, 1000, "available"],
    [5, 5, "low"], // ≤ 5 left, even of 5
    [6, 6, "available"],
  ] as const)("%i left of %i is %s", (remaining, maximum, expected) => {
    expect(stockDisplay(remaining, maximum)).toBe(expected);
  });
});

describe("tightest of several linked limits", () => {
  it("is null without limits", () => {
    expect(tightestStock([])).toBeNull();
  });

  it("takes the fewest left, and the most alarming display", () => {
    const concert = { id: 1, maximum: 1000, remaining: 60 };
    const vipArea = { id: 2, maximum: 50, remaining: 40 };
    expect(tightestStock([concert, vipArea])).toEqual({ limit: vipArea, remaining: 40, display: "low" });
    expect(tightestStock([vipArea])).toEqual({ limit: vipArea, remaining: 40, display: "available" });
    expect(tightestStock([concert, { id: 3, maximum: 10, remaining: 0 }])?.display).toBe("out_of_stock");
  });
});

describe("stock properties", () => {
  const rank = (display: StockDisplay) => STOCK_DISPLAYS.indexOf(display);
  const level = fc.record({ maximum: fc.nat({ max: 10_000 }), remaining: fc.integer({ min: -10, max: 10_000 }) });

  it("is monotonic in remaining: more left never looks more alarming", () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000 }), fc.integer({ min: -10, max: 10_000 }), fc.nat({ max: 100 }), (max, r, d) => {
        expect(rank(stockDisplay(r + d, max))).toBeGreaterThanOrEqual(rank(stockDisplay(r, max)));
      }),
    );
  });

  it("out of stock exactly when some linked limit has nothing left", () => {
    fc.assert(
      fc.property(fc.array(level, { minLength: 1, maxLength: 5 }), (limits) => {
        const tightest = tightestStock(limits);
        expect(tightest?.remaining).toBe(Math.min(...limits.map((l) => l.remaining)));
        expect(tightest?.display === "out_of_stock").toBe(limits.some((l) => l.remaining <= 0));
        for (const l of limits)
          expect(rank(tightest?.display ?? "available")).toBeLessThanOrEqual(
            rank(stockDisplay(l.remaining, l.maximum)),
          );
      }),
    );
  });
});
