import { describe, expect, it } from "vitest";
import {
  basePrices,
  buildTree,
  dropTarget,
  elementsWithIneffectiveRules,
  findNode,
  flattenTree,
  nextOrder,
  priceStepsBelow,
  reorderWrites,
  stepTarget,
  subtreeIds,
  type TreeConfiguration,
  type TreeRow,
} from "./tree.ts";

// root(1) ─ group(2) ─ a(3), b(4)
//         ─ article(5) ─ option(6)
const nodes: TreeRow[] = [
  { id: 4, parentId: 2, order: 1, configurationId: 14, cartConfigurationId: 24 },
  { id: 1, parentId: null, order: 0, configurationId: 11, cartConfigurationId: 21 },
  { id: 5, parentId: 1, order: 1, configurationId: 15, cartConfigurationId: 25 },
  { id: 3, parentId: 2, order: 0, configurationId: 13, cartConfigurationId: 23 },
  { id: 2, parentId: 1, order: 0, configurationId: 12, cartConfigurationId: 22 },
  { id: 6, parentId: 5, order: 0, configurationId: 16, cartConfigurationId: 26 },
];
const configurations: TreeConfiguration[] = [
  { id: 11, category: "no_configuration", title: "Root" },
  { id: 12, category: "single_choice", title: "Pass" },
  { id: 13, category: "article", title: "Day" },
  { id: 14, category: "article", title: "Weekend" },
  { id: 15, category: "article", title: "Dinner" },
  { id: 16, category: "option", title: "Wine" },
];
const carts = [21, 22, 23, 24, 25, 26].map((id) => ({ id, weight: 1, rangeMin: 0, rangeMax: 1 }));
const tree = buildTree(nodes, configurations, carts, 1);

describe("buildTree", () => {
  it("nests the flat rows under the root, children by order, with their configurations and depths", () => {
    expect(flattenTree(tree).map((node) => [node.id, node.depth, node.configuration.title])).toEqual([
      [1, 0, "Root"],
      [2, 1, "Pass"],
      [3, 2, "Day"],
      [4, 2, "Weekend"],
      [5, 1, "Dinner"],
      [6, 2, "Wine"],
    ]);
    expect(tree?.children[0]?.cart).toEqual({ id: 22, weight: 1, rangeMin: 0, rangeMax: 1 });
  });

  it("breaks order ties by id, leaves out rows not under the root and answers null without root", () => {
    const tied = buildTree(
      [
        { id: 1, parentId: null, order: 0, configurationId: 11, cartConfigurationId: 21 },
        { id: 9, parentId: 1, order: 0, configurationId: 13, cartConfigurationId: 23 },
        { id: 7, parentId: 1, order: 0, configurationId: 14, cartConfigurationId: 24 },
        { id: 8, parentId: 99, order: 0, configurationId: 14, cartConfigurationId: 24 },
      ],
      configurations,
      carts,
      1,
    );
    expect(flattenTree(tied).map((node) => node.id)).toEqual([1, 7, 9]);
    expect(buildTree(nodes, configurations, carts, 42)).toBeNull();
  });

  it("does not loop on a cycle in the rows", () => {
    const cyclic = buildTree(
      [
        { id: 1, parentId: null, order: 0, configurationId: 11, cartConfigurationId: 21 },
        { id: 2, parentId: 3, order: 0, configurationId: 12, cartConfigurationId: 22 },
        { id: 3, parentId: 2, order: 0, configurationId: 13, cartConfigurationId: 23 },
      ],
      configurations,
      carts,
      1,
    );
    expect(flattenTree(cyclic).map((node) => node.id)).toEqual([1]);
  });

  it("knows a subtree", () => {
    expect([...subtreeIds(tree, 2)].sort()).toEqual([2, 3, 4]);
  });
});

describe("dropTarget", () => {
  it("places a node before or after a sibling, counting orders without the moved node", () => {
    expect(dropTarget(tree, 3, 4, "after")).toEqual({ parentId: 2, order: 1 });
    expect(dropTarget(tree, 4, 3, "before")).toEqual({ parentId: 2, order: 0 });
    expect(dropTarget(tree, 5, 2, "before")).toEqual({ parentId: 1, order: 0 });
  });

  it("moves a node into another parent, last", () => {
    expect(dropTarget(tree, 3, 5, "inside")).toEqual({ parentId: 5, order: 1 });
    expect(dropTarget(tree, 6, 4, "after")).toEqual({ parentId: 2, order: 2 });
  });

  it("refuses the root, its own subtree, options as parents, beside the root and no-op moves", () => {
    expect(dropTarget(tree, 1, 5, "inside")).toBeNull();
    expect(dropTarget(tree, 2, 3, "inside")).toBeNull();
    expect(dropTarget(tree, 2, 2, "after")).toBeNull();
    expect(dropTarget(tree, 3, 6, "inside")).toBeNull();
    expect(dropTarget(tree, 3, 1, "before")).toBeNull();
    expect(dropTarget(tree, 3, 4, "before")).toBeNull();
    expect(dropTarget(tree, 4, 3, "after")).toBeNull();
  });
});

describe("stepTarget", () => {
  it("moves one place among the siblings, not past the ends", () => {
    expect(stepTarget(tree, 4, -1)).toEqual({ parentId: 2, order: 0 });
    expect(stepTarget(tree, 3, 1)).toEqual({ parentId: 2, order: 1 });
    expect(stepTarget(tree, 3, -1)).toBeNull();
    expect(stepTarget(tree, 4, 1)).toBeNull();
    expect(stepTarget(tree, 1, 1)).toBeNull();
  });
});

describe("reorderWrites", () => {
  it("swaps with the neighbour and makes the orders dense, writing only what changes", () => {
    const items = [
      { id: 1, order: 0 },
      { id: 2, order: 1 },
      { id: 3, order: 2 },
    ];
    expect(reorderWrites(items, 3, -1)).toEqual([
      { id: 3, order: 1 },
      { id: 2, order: 2 },
    ]);
    expect(reorderWrites(items, 1, -1)).toEqual([]);
    expect(
      reorderWrites(
        [
          { id: 1, order: 5 },
          { id: 2, order: 5 },
        ],
        1,
        1,
      ),
    ).toEqual([
      { id: 2, order: 0 },
      { id: 1, order: 1 },
    ]);
  });

  it("appends after the highest order", () => {
    expect(nextOrder([])).toBe(0);
    expect(nextOrder([{ order: 0 }, { order: 4 }])).toBe(5);
  });
});

describe("basePrices", () => {
  it("folds own and propagated rules, skips conditional ones, prices only articles and options", () => {
    const rules = [
      {
        id: 1,
        mode: "set",
        value: 4500,
        order: 0,
        conditionId: null,
        shouldPropagate: false,
        nodeConfigurationIds: [13, 14],
      },
      {
        id: 2,
        mode: "plus",
        value: 1000,
        order: 1,
        conditionId: null,
        shouldPropagate: true,
        nodeConfigurationIds: [12],
      },
      {
        id: 3,
        mode: "minus_percent",
        value: 2000,
        order: 2,
        conditionId: 7,
        shouldPropagate: false,
        nodeConfigurationIds: [13],
      },
      {
        id: 4,
        mode: "set",
        value: 1500,
        order: 0,
        conditionId: null,
        shouldPropagate: false,
        nodeConfigurationIds: [16],
      },
    ] as const;
    const prices = basePrices(
      tree,
      rules.map((rule) => ({ ...rule, nodeConfigurationIds: [...rule.nodeConfigurationIds] })),
    );
    expect(Object.fromEntries(prices)).toEqual({ 3: 5500, 4: 5500, 5: 0, 6: 1500 });
  });
});

describe("priceStepsBelow", () => {
  const rule = (id: number, mode: "set" | "plus", value: number, order: number, configurationIds: number[]) => ({
    id,
    mode,
    value,
    order,
    conditionId: null,
    shouldPropagate: mode === "plus",
    nodeConfigurationIds: configurationIds,
  });
  // The pass's "+5 for everything below" comes first; Day's own "set 40" after it, Weekend's "set 70" before it.
  const rules = [rule(1, "plus", 500, 1, [12]), rule(2, "set", 4000, 2, [13]), rule(3, "set", 7000, 0, [14])];

  it("gives each element at or below the selected one its steps, and flags the surcharge where a set follows it", () => {
    const pass = findNode(tree, 2);
    if (!pass) throw new Error("no pass");
    const below = priceStepsBelow(tree, pass, rules);
    expect(below.map(({ node, steps }) => [node.id, steps.map((step) => step.rule.id)])).toEqual([
      [2, [1]],
      [3, [1, 2]],
      [4, [3, 1]],
    ]);
    const flags = below.flatMap(({ node, steps }) =>
      steps.flatMap((step) => (step.noEffect ? [[node.id, step.rule.id, step.noEffect.reason]] : [])),
    );
    expect(flags).toEqual([[3, 1, "overridden"]]);
    expect(Object.fromEntries(basePrices(tree, rules))).toEqual({ 3: 4000, 4: 7500, 5: 0, 6: 0 });
    // The tree marks the one priced element a rule does nothing for.
    expect([...elementsWithIneffectiveRules(tree, rules)]).toEqual([3]);
  });
});
