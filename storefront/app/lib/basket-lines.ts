// The basket as the buyer reads it: identical articles (same element, same options) as one line "3 × Day pass".
import type { BasketItem } from "@ticketing/shared/schemas/ticket-office";

export interface BasketLine {
  /** Names the line in a form: the element and its options' elements. */
  key: string;
  nodeId: number | null;
  optionNodeIds: number[];
  title: string;
  options: BasketItem["options"];
  /** The line's items, oldest first: the ones a smaller quantity keeps (with their answers). */
  items: BasketItem[];
  quantity: number;
  /** Every item's price with its options. */
  price: number; // cents
}

const optionNodeIdsOf = (item: BasketItem) =>
  item.options.flatMap((option) => (option.nodeId === null ? [] : [option.nodeId])).sort((a, b) => a - b);

// An item whose element is gone (node id null) cannot be told identical to another: it stays a line of its own.
const keyOf = (item: BasketItem) =>
  item.nodeId === null || item.options.some((option) => option.nodeId === null)
    ? `item-${item.id}`
    : `${item.nodeId}:${optionNodeIdsOf(item).join(",")}`;

/** The basket's lines, in the order their first item was added. */
export function basketLines(items: BasketItem[]): BasketLine[] {
  const lines = new Map<string, BasketLine>();
  for (const item of [...items].sort((a, b) => a.id - b.id)) {
    const key = keyOf(item);
    const line = lines.get(key);
    if (line) {
      line.items.push(item);
      line.quantity += 1;
      line.price += item.price;
    } else {
      lines.set(key, {
        key,
        nodeId: item.nodeId,
        optionNodeIds: optionNodeIdsOf(item),
        title: item.title,
        options: item.options,
        items: [item],
        quantity: 1,
        price: item.price,
      });
    }
  }
  return [...lines.values()];
}

/**
 * What changing a line to `wanted` does: the newest items to take out (the oldest keep their answers), or how
 * many to add with the same options.
 */
export function lineChange(line: BasketLine, wanted: number): { remove: number[]; add: number } {
  if (wanted < line.quantity) return { remove: line.items.slice(wanted).map((item) => item.id), add: 0 };
  return { remove: [], add: wanted - line.quantity };
}
