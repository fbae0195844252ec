// How the buyer's tree (docs/api.md "Tree") is laid out on the buy page, as pure functions (tested).
import { GROUP_CATEGORIES } from "@ticketing/shared/constants";
import type { TreeNode } from "@ticketing/shared/schemas/ticket-office";

export const isGroup = (node: TreeNode) => (GROUP_CATEGORIES as readonly string[]).includes(node.category);

/** A group whose subtree holds articles is a section of the catalogue; other groups hold options. */
export const holdsArticles = (node: TreeNode): boolean =>
  node.children.some((child) => child.category === "article" || (isGroup(child) && holdsArticles(child)));

/** What a group asks of the buyer, from its cart range (DESIGN 4: weights summed into [min, max]). */
export type RangeHint =
  | { kind: "exactly"; count: number }
  | { kind: "between"; min: number; max: number }
  | { kind: "atLeast"; min: number }
  | { kind: "upTo"; max: number };

export function rangeHint(node: TreeNode): RangeHint | null {
  if (!isGroup(node)) return null;
  const min = node.cart?.rangeMin ?? 0;
  let max = node.cart?.rangeMax ?? null;
  // A single-choice group takes one child at most, whatever its range says.
  if (node.category === "single_choice") max = Math.max(min, Math.min(max ?? 1, 1));
  if (max === null) return min > 0 ? { kind: "atLeast", min } : null;
  if (min === max) return { kind: "exactly", count: min };
  return min === 0 ? { kind: "upTo", max } : { kind: "between", min, max };
}

/** Radio buttons of a single-choice group share one name per group, checkboxes share `optionNodeId`. */
export const OPTION_FIELD = "optionNodeId";
export const optionFieldName = (group: TreeNode | null) =>
  group?.category === "single_choice" ? `${OPTION_FIELD}.${group.id}` : OPTION_FIELD;

/** A form value that is a positive integer id, else null. */
export const positiveInt = (value: FormDataEntryValue | null) => {
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : null;
};

/** The options ticked in an article's form: checkboxes and the radio button of each single-choice group. */
export function chosenOptionIds(form: FormData): number[] {
  const ids: number[] = [];
  for (const [name, value] of form.entries()) {
    if (name !== OPTION_FIELD && !name.startsWith(`${OPTION_FIELD}.`)) continue;
    const id = positiveInt(value);
    if (id !== null && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** What bounds a quantity beside the tree: the articles held (node ids, repeated), the basket's maximum. */
export interface QuantityBounds {
  heldNodeIds: number[];
  maxItemsPerBasket: number;
}

/** A node and every node below it. */
const subtree = (node: TreeNode): TreeNode[] => [node, ...node.children.flatMap(subtree)];

/**
 * The most of `article` one add may take (the quantity field's max): the stock left, the room left in the
 * basket (`maxItemsPerBasket` articles), and the room left in each group above it (`groups`), whose range
 * counts its children's weights. The API decides in the end; this only spares the buyer a refusal.
 */
export function quantityMax(article: TreeNode, groups: TreeNode[], bounds: QuantityBounds): number {
  const { heldNodeIds, maxItemsPerBasket } = bounds;
  let max = Math.min(article.stock?.remaining ?? Number.POSITIVE_INFINITY, maxItemsPerBasket - heldNodeIds.length);
  const weight = article.cart?.weight ?? 1;
  for (const group of groups) {
    // A single-choice group takes one child at most, whatever its range says (as in rangeHint).
    const rangeMax = group.category === "single_choice" ? 1 : (group.cart?.rangeMax ?? null);
    if (!isGroup(group) || rangeMax === null || weight === 0) continue;
    const weights = new Map(subtree(group).map((node) => [node.id, node.cart?.weight ?? 1]));
    const held = heldNodeIds.reduce((sum, id) => sum + (weights.get(id) ?? 0), 0);
    max = Math.min(max, Math.floor((rangeMax - held) / weight));
  }
  return Math.max(0, max);
}

/** The article `nodeId` under `node`, with the groups above it from `node` down; null if the visitor cannot see it. */
export function findArticle(node: TreeNode, nodeId: number): { article: TreeNode; groups: TreeNode[] } | null {
  for (const child of node.children) {
    if (child.id === nodeId && child.category === "article") return { article: child, groups: [node] };
    const found = isGroup(child) ? findArticle(child, nodeId) : null;
    if (found) return { article: found.article, groups: [node, ...found.groups] };
  }
  return null;
}
