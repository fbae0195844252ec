import type { TreeNode } from "./tree.ts";

export const GRAPH_SPACING = { x: 210, y: 110 };

/**
 * A tidy top-down layout: leaves take consecutive columns, a parent sits above the middle of its children.
 * Pure, so that the graph view needs no layout library.
 */
export function graphLayout(root: TreeNode): { node: TreeNode; x: number; y: number }[] {
  const placed: { node: TreeNode; x: number; y: number }[] = [];
  let nextColumn = 0;
  const place = (node: TreeNode): number => {
    let column: number;
    if (node.children.length === 0) column = nextColumn++;
    else {
      const columns = node.children.map(place);
      column = ((columns[0] ?? 0) + (columns[columns.length - 1] ?? 0)) / 2;
    }
    placed.push({ node, x: column * GRAPH_SPACING.x, y: node.depth * GRAPH_SPACING.y });
    return column;
  };
  place(root);
  return placed;
}
