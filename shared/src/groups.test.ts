import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NodeCategory } from "./constants.ts";
import {
  isRangeSatisfiable,
  isSelectionValid,
  rangeWitness,
  type SelectionNode,
  selectionErrors,
  unsatisfiableRanges,
} from "./groups.ts";

const leaf = (id: number, weight = 1, extra: Partial<SelectionNode> = {}): SelectionNode => ({
  id,
  category: "article",
  weight,
  rangeMin: 0,
  rangeMax: null,
  children: [],
  ...extra,
});
const group = (
  id: number,
  category: NodeCategory,
  [rangeMin, rangeMax]: [number, number | null],
  children: SelectionNode[],
  weight = 1,
): SelectionNode => ({ id, category, weight, rangeMin, rangeMax, children });

describe("selection validity", () => {
  const menu = group(1, "multiple_choice", [1, 3], [leaf(10), leaf(11), leaf(12, 2), leaf(13, 3)]);

  it("accepts a selection whose weights sum into the range", () => {
    expect(selectionErrors(menu, [10])).toEqual([]);
    expect(selectionErrors(menu, [10, 12])).toEqual([]);
    expect(isSelectionValid(menu, [13])).toBe(true);
  });

  it("reports which group is below its minimum or above its maximum, with the sum", () => {
    expect(selectionErrors(menu, [])).toEqual([{ kind: "below_min", nodeId: 1, sum: 0, min: 1 }]);
    expect(selectionErrors(menu, [10, 13])).toEqual([{ kind: "above_max", nodeId: 1, sum: 4, max: 3 }]);
  });

  it("treats a null maximum as unbounded", () => {
    const open = group(1, "multiple_choice", [2, null], [leaf(10), leaf(11), leaf(12), leaf(13)]);
    expect(isSelectionValid(open, [10, 11, 12, 13])).toBe(true);
    expect(selectionErrors(open, [10])).toEqual([{ kind: "below_min", nodeId: 1, sum: 1, min: 2 }]);
  });

  it("allows at most one child in a single-choice group, whatever the range", () => {
    const meal = group(1, "single_choice", [0, 5], [leaf(10), leaf(11), leaf(12)]);
    expect(isSelectionValid(meal, [])).toBe(true);
    expect(isSelectionValid(meal, [11])).toBe(true);
    expect(selectionErrors(meal, [10, 11])).toEqual([{ kind: "single_choice", nodeId: 1, count: 2 }]);
  });

  it("counts a nested group as selected when something under it is, with the group's own weight", () => {
    const workshops = group(2, "multiple_choice", [1, 2], [leaf(20), leaf(21), leaf(22)], 5);
    const root = group(1, "complex", [1, 5], [workshops, leaf(10)]);
    expect(selectionErrors(root, [20, 21])).toEqual([]); // root sum 5: the group's weight, not 2
    expect(selectionErrors(root, [20, 21, 10])).toEqual([{ kind: "above_max", nodeId: 1, sum: 6, max: 5 }]);
    expect(selectionErrors(root, [20, 21, 22])).toEqual([{ kind: "above_max", nodeId: 2, sum: 3, max: 2 }]);
  });

  it("does not check a nested group nobody went into, but always checks the root", () => {
    const workshops = group(2, "multiple_choice", [1, 1], [leaf(20), leaf(21)]);
    const root = group(1, "complex", [1, null], [workshops, leaf(10)]);
    expect(selectionErrors(root, [10])).toEqual([]);
    expect(selectionErrors(root, [])).toEqual([{ kind: "below_min", nodeId: 1, sum: 0, min: 1 }]);
  });

  it("bounds an article's options with the article's range once the article is chosen", () => {
    const article = { ...leaf(10), rangeMin: 1, rangeMax: 1, children: [leaf(100, 1), leaf(101, 1)] };
    const root = group(1, "multiple_choice", [0, null], [article, leaf(11)]);
    expect(selectionErrors(root, [11])).toEqual([]);
    expect(selectionErrors(root, [10])).toEqual([{ kind: "below_min", nodeId: 10, sum: 0, min: 1 }]);
    expect(selectionErrors(root, [10, 101])).toEqual([]);
    expect(selectionErrors(root, [101])).toEqual([]); // an option selects its article
  });

  it("requires a required child once its parent is selected", () => {
    const root = group(1, "multiple_choice", [0, null], [leaf(10, 1, { isRequired: true }), leaf(11)]);
    expect(selectionErrors(root, [11])).toEqual([{ kind: "required_child", nodeId: 1, childId: 10 }]);
    expect(selectionErrors(root, [10, 11])).toEqual([]);
  });

  it("reports a chosen id that is not in the tree", () => {
    expect(selectionErrors(menu, [10, 99])).toEqual([{ kind: "unknown_node", nodeId: 99 }]);
  });
});

describe("range satisfiability (editor)", () => {
  it.each<[number[], number, number | null, boolean, boolean]>([
    [[1, 1, 1], 2, 2, false, true],
    [[1, 1, 1], 4, null, false, false],
    [[1, 1, 1], 3, null, false, true],
    [[2, 2], 3, 3, false, false], // only even sums
    [[2, 3], 5, 5, false, true],
    [[2, 3], 5, 5, true, false], // single choice: one child at most
    [[2, 3], 3, 3, true, true],
    [[], 0, 0, false, true],
    [[], 1, null, false, false],
    [[1, 2], 2, 1, false, false], // min above max
    [[5, 0], 0, 0, false, true], // choosing nothing fulfils [0, 0]
  ])("weights %j in [%i, %s], single choice %s → %s", (weights, min, max, singleChoice, expected) => {
    expect(isRangeSatisfiable(weights, min, max, { singleChoice })).toBe(expected);
  });

  it("returns a witness subset, counting required children", () => {
    expect(rangeWitness([2, 3, 4], 7, 7)).toEqual([1, 2]);
    expect(rangeWitness([2, 3, 4], 0, 5, { required: [2] })).toEqual([2]);
    expect(rangeWitness([2, 3, 4], 6, 6, { required: [2] })).toEqual([0, 2]);
    expect(rangeWitness([2, 3, 4], 0, 3, { required: [2] })).toBeNull();
    expect(rangeWitness([2, 3], 0, 5, { singleChoice: true, required: [0, 1] })).toBeNull();
  });

  it("lists the nodes of a tree whose range cannot be fulfilled", () => {
    const tree = group(1, "complex", [0, null], [group(2, "single_choice", [2, 2], [leaf(20), leaf(21)]), leaf(10)]);
    expect(unsatisfiableRanges(tree)).toEqual([{ kind: "range_unsatisfiable", nodeId: 2, min: 2, max: 2 }]);
  });
});

describe("range properties", () => {
  const flatGroup = fc
    .record({
      weights: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 6 }),
      min: fc.integer({ min: 0, max: 12 }),
      span: fc.option(fc.integer({ min: -2, max: 6 }), { nil: null }),
      singleChoice: fc.boolean(),
      requiredMask: fc.nat({ max: 63 }),
    })
    .map(({ weights, min, span, singleChoice, requiredMask }) => {
      const children = weights.map((weight, i) =>
        leaf(100 + i, weight, { isRequired: ((requiredMask >> i) & 1) === 1 }),
      );
      const category: NodeCategory = singleChoice ? "single_choice" : "multiple_choice";
      return group(1, category, [min, span === null ? null : min + span], children);
    });
  const subsets = (n: number) =>
    Array.from({ length: 2 ** n }, (_, mask) => Array.from({ length: n }, (_, i) => i).filter((i) => (mask >> i) & 1));
  const optionsOf = (g: SelectionNode) => ({
    singleChoice: g.category === "single_choice",
    required: g.children.flatMap((c, i) => (c.isRequired ? [i] : [])),
  });

  it("an unsatisfiable range refuses every selection", () => {
    fc.assert(
      fc.property(flatGroup, (g) => {
        if (
          isRangeSatisfiable(
            g.children.map((c) => c.weight),
            g.rangeMin,
            g.rangeMax,
            optionsOf(g),
          )
        )
          return;
        for (const subset of subsets(g.children.length))
          expect(
            isSelectionValid(
              g,
              subset.map((i) => 100 + i),
            ),
          ).toBe(false);
      }),
    );
  });

  it("a satisfiable range has a valid selection: its witness", () => {
    fc.assert(
      fc.property(flatGroup, (g) => {
        const witness = rangeWitness(
          g.children.map((c) => c.weight),
          g.rangeMin,
          g.rangeMax,
          optionsOf(g),
        );
        if (witness === null) return;
        expect(
          selectionErrors(
            g,
            witness.map((i) => 100 + i),
          ),
        ).toEqual([]);
      }),
    );
  });

  it("satisfiable exactly when brute force finds a valid selection", () => {
    fc.assert(
      fc.property(flatGroup, (g) => {
        const someValid = subsets(g.children.length).some((subset) =>
          isSelectionValid(
            g,
            subset.map((i) => 100 + i),
          ),
        );
        expect(
          isRangeSatisfiable(
            g.children.map((c) => c.weight),
            g.rangeMin,
            g.rangeMax,
            optionsOf(g),
          ),
        ).toBe(someValid);
      }),
    );
  });
});
