// The element tree of an event (docs/design.md §4 "Element tree"), built from the flat rows of /nodes,
// /node-configurations and /node-cart-configurations; the move computations of the editor. Pure.
import { GROUP_CATEGORIES, type NodeCategory } from "@ticketing/shared/constants";
import { basePriceOf, type PriceStep, priceSteps } from "@ticketing/shared/price-steps";
import type {
  NodeCartConfiguration,
  NodeConfiguration,
  NodePriceRule,
  NodeRow,
} from "@ticketing/shared/schemas/catalogue";

/** What the tree reads of an element (`GET /nodes`): its place and its two configurations. */
export type TreeRow = Pick<NodeRow, "id" | "parentId" | "order" | "configurationId" | "cartConfigurationId">;

/**
 * An element's configuration (`GET /node-configurations`). Only the placeholder of a configuration not loaded
 * yet (the lists are fetched separately) lacks the fields besides these three; the element's form defaults them.
 */
export type TreeConfiguration = Pick<NodeConfiguration, "id" | "category" | "title"> & Partial<NodeConfiguration>;

/** An element's cart configuration (`GET /node-cart-configurations`), as the tree reads it. */
export type TreeCart = Pick<NodeCartConfiguration, "id" | "weight" | "rangeMin" | "rangeMax">;

export interface TreeNode {
  id: number;
  parentId: number | null;
  order: number;
  depth: number;
  configuration: TreeConfiguration;
  cart: TreeCart | null;
  children: TreeNode[];
}

export const isGroupCategory = (category: NodeCategory): boolean =>
  (GROUP_CATEGORIES as readonly string[]).includes(category);

/** Options are leaves (docs/api.md: "Option leaves cannot be configured"): nothing goes below them. */
export const canHaveChildren = (category: NodeCategory): boolean => category !== "option";

const byOrderThenId = (a: TreeRow, b: TreeRow) => a.order - b.order || a.id - b.id;

/**
 * The tree under `rootId`, children sorted by `order` then id. Rows whose configuration is missing get a
 * placeholder (the lists are fetched separately and may briefly disagree); rows not reachable from the root
 * are left out, and a cycle in the rows cannot loop.
 */
export function buildTree(
  nodes: readonly TreeRow[],
  configurations: readonly TreeConfiguration[],
  carts: readonly TreeCart[],
  rootId: number,
): TreeNode | null {
  const configurationById = new Map(configurations.map((row) => [row.id, row]));
  const cartById = new Map(carts.map((row) => [row.id, row]));
  const childrenOf = new Map<number, TreeRow[]>();
  for (const node of nodes) {
    if (node.parentId === null) continue;
    const siblings = childrenOf.get(node.parentId) ?? [];
    siblings.push(node);
    childrenOf.set(node.parentId, siblings);
  }
  const rootRow = nodes.find((node) => node.id === rootId);
  if (!rootRow) return null;
  const seen = new Set<number>();
  const build = (row: TreeRow, depth: number): TreeNode => {
    seen.add(row.id);
    const children = [...(childrenOf.get(row.id) ?? [])]
      .sort(byOrderThenId)
      .filter((child) => !seen.has(child.id))
      .map((child) => build(child, depth + 1));
    return {
      id: row.id,
      parentId: row.parentId,
      order: row.order,
      depth,
      configuration: configurationById.get(row.configurationId) ?? {
        id: row.configurationId,
        category: "article",
        title: "",
      },
      cart: cartById.get(row.cartConfigurationId) ?? null,
      children,
    };
  };
  return build(rootRow, 0);
}

/** Depth-first, parents before children: the rows of the editor's list. */
export function flattenTree(root: TreeNode | null): TreeNode[] {
  if (!root) return [];
  return [root, ...root.children.flatMap((child) => flattenTree(child))];
}

export function findNode(root: TreeNode | null, id: number): TreeNode | null {
  return flattenTree(root).find((node) => node.id === id) ?? null;
}

/** The ids of `id` and every node below it. */
export function subtreeIds(root: TreeNode | null, id: number): Set<number> {
  return new Set(flattenTree(findNode(root, id)).map((node) => node.id));
}

/** The configurations of a node's ancestors, nearest first (for propagated price rules). */
export function ancestorsOf(root: TreeNode | null, id: number): TreeNode[] {
  const path: TreeNode[] = [];
  const walk = (node: TreeNode): boolean => {
    if (node.id === id) return true;
    for (const child of node.children)
      if (walk(child)) {
        path.push(node);
        return true;
      }
    return false;
  };
  if (root) walk(root);
  return path;
}

/** `POST /nodes/:id/move` body: `order` is the node's index among the new parent's children after the move. */
export interface MoveTarget {
  parentId: number;
  order: number;
}

export type DropPosition = "before" | "after" | "inside";

/**
 * Where a node dropped on `targetId` goes: before or after it among its siblings, or as its last child. Null
 * when the move is impossible (the root, into its own subtree, under an option) or changes nothing.
 */
export function dropTarget(
  root: TreeNode | null,
  draggedId: number,
  targetId: number,
  position: DropPosition,
): MoveTarget | null {
  const dragged = findNode(root, draggedId);
  const target = findNode(root, targetId);
  if (!root || !dragged || !target || dragged.parentId === null) return null;
  if (subtreeIds(root, draggedId).has(targetId)) return null;
  let parent: TreeNode | null;
  let index: number;
  if (position === "inside") {
    parent = target;
    if (!canHaveChildren(parent.configuration.category)) return null;
    index = parent.children.filter((child) => child.id !== draggedId).length;
  } else {
    if (target.parentId === null) return null; // nothing beside the root
    parent = findNode(root, target.parentId);
    if (!parent) return null;
    const others = parent.children.filter((child) => child.id !== draggedId);
    const targetIndex = others.findIndex((child) => child.id === targetId);
    index = position === "before" ? targetIndex : targetIndex + 1;
  }
  const move = { parentId: parent.id, order: index };
  return isSamePlace(root, dragged, move) ? null : move;
}

function isSamePlace(root: TreeNode, node: TreeNode, move: MoveTarget): boolean {
  if (node.parentId !== move.parentId) return false;
  const parent = findNode(root, move.parentId);
  return parent?.children.findIndex((child) => child.id === node.id) === move.order;
}

/** The keyboard's move up/down: one place among the siblings; null at the ends. */
export function stepTarget(root: TreeNode | null, id: number, direction: -1 | 1): MoveTarget | null {
  const node = findNode(root, id);
  if (!node || node.parentId === null) return null;
  const parent = findNode(root, node.parentId);
  if (!parent) return null;
  const index = parent.children.findIndex((child) => child.id === id);
  const order = index + direction;
  if (order < 0 || order >= parent.children.length) return null;
  return { parentId: parent.id, order };
}

/**
 * Dense orders (0, 1, 2, …) for a list where the item `id` went one step up or down: the `{id, order}` writes
 * that differ from the current orders. Used for ordered rows without a move endpoint (forms, fields, rules).
 */
export function reorderWrites<T extends { id: number; order: number }>(
  items: readonly T[],
  id: number,
  direction: -1 | 1,
): { id: number; order: number }[] {
  const sorted = [...items].sort((a, b) => a.order - b.order || a.id - b.id);
  const index = sorted.findIndex((item) => item.id === id);
  const swapWith = index + direction;
  if (index < 0 || swapWith < 0 || swapWith >= sorted.length) return [];
  const reordered = [...sorted];
  [reordered[index], reordered[swapWith]] = [reordered[swapWith] as T, reordered[index] as T];
  return reordered.flatMap((item, order) => (item.order === order ? [] : [{ id: item.id, order }]));
}

/** The next `order` for a new row appended to an ordered list. */
export const nextOrder = (items: readonly { order: number }[]): number =>
  items.reduce((max, item) => Math.max(max, item.order + 1), 0);

/** What pricing reads of a price rule (`GET /node-price-rules`), with the configurations it is linked to. */
export type LinkedPriceRule = Pick<
  NodePriceRule,
  "id" | "mode" | "value" | "order" | "conditionId" | "shouldPropagate" | "nodeConfigurationIds"
>;

/** Articles and options have a price; groups only pass their propagating rules down. */
export const isPriced = (category: NodeCategory): boolean => category === "article" || category === "option";

/** An element and the steps of its price (shared/price-steps: own and propagated rules, as folded). */
export interface ElementSteps<R> {
  node: TreeNode;
  steps: PriceStep<R>[];
}

/**
 * Every element at or below `node` (itself first, then depth-first) with the steps of its price, in one walk of
 * the tree: the side panel's list of rules, and its warnings about the priced elements below. A group's steps
 * are its list of rules; their figures mean nothing (a group has no price).
 */
export function priceStepsBelow<R extends LinkedPriceRule>(
  root: TreeNode | null,
  node: TreeNode,
  rules: readonly R[],
): ElementSteps<R>[] {
  const byConfiguration = new Map<number, R[]>();
  for (const rule of rules)
    for (const configurationId of rule.nodeConfigurationIds)
      byConfiguration.set(configurationId, [...(byConfiguration.get(configurationId) ?? []), rule]);
  const rulesOf = (element: TreeNode) => byConfiguration.get(element.configuration.id) ?? [];
  const found: ElementSteps<R>[] = [];
  const walk = (element: TreeNode, ancestors: TreeNode[]) => {
    const linked = ancestors.map((ancestor) => ({ nodeId: ancestor.id, rules: rulesOf(ancestor) }));
    found.push({ node: element, steps: priceSteps({ ownRules: rulesOf(element), ancestors: linked }) });
    for (const child of element.children) walk(child, [element, ...ancestors]);
  };
  walk(node, ancestorsOf(root, node.id));
  return found;
}

/**
 * The base price of every article and option (cents): own rules and ancestors' propagating rules, without the
 * conditional ones, as the steps of shared/price-steps come to. Groups get no price.
 */
export function basePrices(root: TreeNode | null, rules: readonly LinkedPriceRule[]): Map<number, number> {
  if (!root) return new Map();
  return new Map(
    priceStepsBelow(root, root, rules).flatMap(({ node, steps }) =>
      isPriced(node.configuration.category) ? [[node.id, basePriceOf(steps)] as const] : [],
    ),
  );
}

/** The priced elements on which at least one rule has no effect (shared/price-steps): the tree marks them. */
export function elementsWithIneffectiveRules(root: TreeNode | null, rules: readonly LinkedPriceRule[]): Set<number> {
  if (!root) return new Set();
  return new Set(
    priceStepsBelow(root, root, rules).flatMap(({ node, steps }) =>
      isPriced(node.configuration.category) && steps.some((step) => step.noEffect) ? [node.id] : [],
    ),
  );
}
