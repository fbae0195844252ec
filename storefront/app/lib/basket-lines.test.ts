import type { BasketItem } from "@ticketing/shared/schemas/ticket-office";
import { describe, expect, it } from "vitest";
import { basketLines, lineChange } from "./basket-lines";

const item = (id: number, nodeId: number | null, optionNodeIds: number[] = [], price = 1000): BasketItem => ({
  id,
  nodeId,
  title: `Node ${nodeId}`,
  price,
  articlePrice: price,
  options: optionNodeIds.map((optionId) => ({ id: id * 100 + optionId, nodeId: optionId, title: "Option", price: 0 })),
});

describe("basket lines", () => {
  it("makes one line of the same element with the same options, whatever order the options come in", () => {
    const lines = basketLines([item(1, 7, [3, 4]), item(2, 7, [4, 3]), item(3, 7, [3]), item(4, 8)]);
    expect(lines.map((line) => [line.key, line.quantity, line.price])).toEqual([
      ["7:3,4", 2, 2000],
      ["7:3", 1, 1000],
      ["8:", 1, 1000],
    ]);
    expect(lines[0]?.items.map((i) => i.id)).toEqual([1, 2]);
  });

  it("keeps items whose element is gone apart", () => {
    expect(basketLines([item(1, null), item(2, null)]).map((line) => line.quantity)).toEqual([1, 1]);
  });

  it("orders a line's items oldest first, so a smaller quantity takes out the newest", () => {
    const [line] = basketLines([item(9, 7), item(5, 7), item(6, 7)]);
    if (!line) throw new Error("no line");
    expect(lineChange(line, 1)).toEqual({ remove: [6, 9], add: 0 });
    expect(lineChange(line, 3)).toEqual({ remove: [], add: 0 });
    expect(lineChange(line, 5)).toEqual({ remove: [], add: 2 });
  });
});
