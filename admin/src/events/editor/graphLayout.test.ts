import { describe, expect, it } from "vitest";
import { GRAPH_SPACING, graphLayout } from "./graphLayout.ts";
import { buildTree } from "./tree.ts";

describe("graphLayout", () => {
  it("puts leaves in consecutive columns and parents above the middle of their children", () => {
    const root = buildTree(
      [
        { id: 1, parentId: null, order: 0, configurationId: 1, cartConfigurationId: 1 },
        { id: 2, parentId: 1, order: 0, configurationId: 1, cartConfigurationId: 1 },
        { id: 3, parentId: 2, order: 0, configurationId: 1, cartConfigurationId: 1 },
        { id: 4, parentId: 2, order: 1, configurationId: 1, cartConfigurationId: 1 },
        { id: 5, parentId: 1, order: 1, configurationId: 1, cartConfigurationId: 1 },
      ],
      [{ id: 1, category: "article", title: "" }],
      [],
      1,
    );
    if (!root) throw new Error("no tree");
    const at = Object.fromEntries(
      graphLayout(root).map(({ node, x, y }) => [node.id, [x / GRAPH_SPACING.x, y / GRAPH_SPACING.y]]),
    );
    expect(at).toEqual({ 1: [1.25, 0], 2: [0.5, 1], 3: [0, 2], 4: [1, 2], 5: [2, 1] });
  });
});
