// How the buyer's tree (docs/api.md "Tree") is laid out on the buy page, as pure functions (tested).
import { GROUP_CATEGORIES } from "@ticketing/shared/constants";
import type { TreeNode } from "@ticketing/shared/schemas/ticket-office";

export const isGroup = (node: TreeNode) => (GROUP_CATEGORIES as readonly string[]).includes(node.category);

/** A group whose subtree holds articles is a section of the catalogue; other groups hold options. */
export const holdsArticles = (node: TreeNode): boolean =>
  node.children.some((child) => child.category === "article" || (isGroup(child) && holdsArticles(child)));

/** What a group asks of the buyer, from its cart range (docs/design.md §4: weights summed into [min, max]). */
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

/** What bounds a quantity besides the stock: the articles in the basket, and how many it may hold. */
export interface QuantityBounds {
  heldCount: number;
  maxItemsPerBasket: number;
}

/**
 * The most of `article` one add may take (the quantity field's max): the stock left and the room left in the
 * basket. A group's range counts the different articles chosen in it, not their tickets (shared/groups.ts), so it
 * does not bound a quantity. The API decides in the end; this only spares the buyer a refusal.
 */
export function quantityMax(article: TreeNode, { heldCount, maxItemsPerBasket }: QuantityBounds): number {
  const stockLeft = article.stock?.remaining ?? Number.POSITIVE_INFINITY;
  return Math.max(0, Math.min(stockLeft, maxItemsPerBasket - heldCount));
}

/** The article `nodeId` in the subtree of `node`, or null when the visitor cannot see it. */
export function findArticle(node: TreeNode, nodeId: number): TreeNode | null {
  for (const child of node.children) {
    if (child.id === nodeId && child.category === "article") return child;
    const found = isGroup(child) ? findArticle(child, nodeId) : null;
    if (found) return found;
  }
  return null;
}
