// Group selection validity (docs/design.md §4 "Element tree", docs/specification.md §5 "Group validity range"):
// pure, no I/O.
//
// Decisions:
// - A node counts as selected when its own id is selected or any of its descendants is: choosing an option of
//   an article selects the article, choosing inside a sub-group selects the sub-group. A selected child adds
//   its OWN weight to its parent's sum, whatever was chosen inside it.
// - Every group, and every node with children, has a range (the cart configuration of every node has one; the
//   default `[0, unbounded]` constrains nothing), so articles bound their options the way groups bound articles.
//   An empty group with range_min 1 is an error, not "nothing to check".
// - The range of the root is always checked (a root range_min of 1 means "choose something"); the range of any
//   other node only when it is selected: a sub-group the buyer did not go into is not "too small".
// - Single-choice groups allow at most one selected child, on top of their range.
// - A required child (`isRequired`) must be selected when its parent is (or its parent is the root).
// - Weights are integers; negative weights are not expected (the editor's schema refuses them) but the subset
//   search stays correct with them.
import { GROUP_CATEGORIES, type NodeCategory } from "./constants.ts";

export interface SelectionNode {
  id: number;
  category: NodeCategory;
  weight: number;
  rangeMin: number;
  /** null: unbounded */
  rangeMax: number | null;
  isRequired?: boolean;
  children: readonly SelectionNode[];
}

export type GroupError =
  | { kind: "below_min"; nodeId: number; sum: number; min: number }
  | { kind: "above_max"; nodeId: number; sum: number; max: number }
  | { kind: "single_choice"; nodeId: number; count: number }
  | { kind: "required_child"; nodeId: number; childId: number }
  | { kind: "unknown_node"; nodeId: number }
  | { kind: "range_unsatisfiable"; nodeId: number; min: number; max: number | null };

/** The i18n keys of the errors (api.json `groups.errors`, English and French), for the API's messages and the clients. */
export const GROUP_ERROR_MESSAGES: Record<GroupError["kind"], { key: string }> = {
  below_min: { key: "groups.errors.below_min" },
  above_max: { key: "groups.errors.above_max" },
  single_choice: { key: "groups.errors.single_choice" },
  required_child: { key: "groups.errors.required_child" },
  unknown_node: { key: "groups.errors.unknown_node" },
  range_unsatisfiable: { key: "groups.errors.range_unsatisfiable" },
};

/** Groups always have a range, even empty ones; an article or option has one over its children (options). */
function hasRange(node: SelectionNode): boolean {
  return node.children.length > 0 || (GROUP_CATEGORIES as readonly string[]).includes(node.category);
}

/** The ids of the selected nodes: the given ones and every ancestor of one of them. */
function selectedClosure(root: SelectionNode, chosen: ReadonlySet<number>): Set<number> {
  const selected = new Set<number>();
  const visit = (node: SelectionNode): boolean => {
    let isSelected = chosen.has(node.id);
    for (const child of node.children) if (visit(child)) isSelected = true;
    if (isSelected) selected.add(node.id);
    return isSelected;
  };
  visit(root);
  return selected;
}

/** The problems of one node's own choice among its children; empty when it is valid. */
function nodeErrors(node: SelectionNode, selected: ReadonlySet<number>): GroupError[] {
  const errors: GroupError[] = [];
  const chosenChildren = node.children.filter((child) => selected.has(child.id));
  const sum = chosenChildren.reduce((total, child) => total + child.weight, 0);
  if (sum < node.rangeMin) errors.push({ kind: "below_min", nodeId: node.id, sum, min: node.rangeMin });
  if (node.rangeMax !== null && sum > node.rangeMax)
    errors.push({ kind: "above_max", nodeId: node.id, sum, max: node.rangeMax });
  if (node.category === "single_choice" && chosenChildren.length > 1)
    errors.push({ kind: "single_choice", nodeId: node.id, count: chosenChildren.length });
  for (const child of node.children)
    if (child.isRequired && !selected.has(child.id))
      errors.push({ kind: "required_child", nodeId: node.id, childId: child.id });
  return errors;
}

/**
 * Every problem of a selection in the tree under `root`, parents before children; empty when it is valid.
 * `chosenIds` are the nodes the buyer picked (articles, options); an id outside the tree is reported.
 */
export function selectionErrors(root: SelectionNode, chosenIds: Iterable<number>): GroupError[] {
  const chosen = new Set(chosenIds);
  const selected = selectedClosure(root, chosen);
  const errors: GroupError[] = [];
  const known = new Set<number>();
  const visit = (node: SelectionNode, isRoot: boolean) => {
    known.add(node.id);
    if (hasRange(node) && (isRoot || selected.has(node.id))) errors.push(...nodeErrors(node, selected));
    for (const child of node.children) visit(child, false);
  };
  visit(root, true);
  for (const id of chosen) if (!known.has(id)) errors.push({ kind: "unknown_node", nodeId: id });
  return errors;
}

export function isSelectionValid(root: SelectionNode, chosenIds: Iterable<number>): boolean {
  return selectionErrors(root, chosenIds).length === 0;
}

export interface RangeOptions {
  /** at most one child (single-choice groups) */
  singleChoice?: boolean;
  /** indexes of the children that must be in every choice (required children) */
  required?: readonly number[];
}

/**
 * Indexes of children whose weights sum into `[min, max]`, or null when there is none (subset sum over the
 * reachable sums, which stay few for small integer weights). Required children are always in; with
 * `singleChoice`, at most one child. The smallest-index subset found first; the empty one when the range allows 0.
 */
export function rangeWitness(
  childWeights: readonly number[],
  min: number,
  max: number | null,
  options: RangeOptions = {},
): number[] | null {
  if (max !== null && max < min) return null;
  const fits = (sum: number) => sum >= min && (max === null || sum <= max);
  const required = [...new Set(options.required ?? [])].sort((a, b) => a - b);
  const weightOf = (index: number) => childWeights[index] ?? 0;
  const requiredSum = required.reduce((total, index) => total + weightOf(index), 0);
  if (fits(requiredSum) && !(options.singleChoice && required.length > 1)) return required;
  if (options.singleChoice) {
    if (required.length > 0) return null;
    const index = childWeights.findIndex(fits);
    return index === -1 ? null : [index];
  }
  const nonNegative = childWeights.every((w) => w >= 0);
  // reachable sum → a subset reaching it; with non-negative weights a sum above max can never come back down,
  // and with no max every sum at or above min is as good as min (clamped, which keeps the map small)
  let reachable = new Map<number, number[]>([[requiredSum, required]]);
  childWeights.forEach((weight, index) => {
    if (required.includes(index)) return;
    const next = new Map(reachable);
    for (const [sum, subset] of reachable) {
      let total = sum + weight;
      if (nonNegative && max !== null && total > max) continue;
      if (nonNegative && max === null) total = Math.min(total, min);
      if (!next.has(total))
        next.set(
          total,
          [...subset, index].sort((a, b) => a - b),
        );
    }
    reachable = next;
  });
  for (const [sum, subset] of reachable) if (fits(sum)) return subset;
  return null;
}

/** The editor's check: can some choice of these children fulfil the range? ("Chosen range cannot be fulfilled") */
export function isRangeSatisfiable(
  childWeights: readonly number[],
  min: number,
  max: number | null,
  options: RangeOptions = {},
): boolean {
  return rangeWitness(childWeights, min, max, options) !== null;
}

/** Every node with children in the tree whose range its children cannot fulfil, for the editor. */
export function unsatisfiableRanges(root: SelectionNode): GroupError[] {
  const errors: GroupError[] = [];
  const visit = (node: SelectionNode) => {
    if (
      hasRange(node) &&
      !isRangeSatisfiable(
        node.children.map((child) => child.weight),
        node.rangeMin,
        node.rangeMax,
        {
          singleChoice: node.category === "single_choice",
          required: node.children.flatMap((child, index) => (child.isRequired ? [index] : [])),
        },
      )
    )
      errors.push({ kind: "range_unsatisfiable", nodeId: node.id, min: node.rangeMin, max: node.rangeMax });
    node.children.forEach(visit);
  };
  visit(root);
  return errors;
}
