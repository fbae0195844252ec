import type { TreeNode } from "@ticketing/shared/schemas/ticket-office";
import { describe, expect, it } from "vitest";
import { chosenOptionIds, findArticle, holdsArticles, optionFieldName, quantityMax, rangeHint } from "./catalogue";

const node = (overrides: Partial<TreeNode>): TreeNode => ({
  id: 1,
  parentId: null,
  order: 0,
  configurationId: 1,
  cartConfigurationId: 1,
  category: "article",
  title: "",
  description: "",
  imageUrl: null,
  isTitleDisplayable: true,
  isImageDisplayable: true,
  isDescriptionDisplayable: true,
  isTagsDisplayable: true,
  isRequired: false,
  tags: [],
  articleCalculatedPrice: null,
  optionCalculatedPrice: null,
  stock: null,
  cart: { weight: 1, rangeMin: 0, rangeMax: null },
  extraInfoGroups: [],
  children: [],
  ...overrides,
});
const group = (category: TreeNode["category"], rangeMin: number, rangeMax: number | null, children: TreeNode[] = []) =>
  node({ id: 5, category, cart: { weight: 1, rangeMin, rangeMax }, children });

describe("range hints", () => {
  it("asks for a range, an exact count, a minimum or a maximum", () => {
    expect(rangeHint(group("multiple_choice", 1, 2))).toEqual({ kind: "between", min: 1, max: 2 });
    expect(rangeHint(group("multiple_choice", 2, 2))).toEqual({ kind: "exactly", count: 2 });
    expect(rangeHint(group("complex", 1, null))).toEqual({ kind: "atLeast", min: 1 });
    expect(rangeHint(group("multiple_choice", 0, 3))).toEqual({ kind: "upTo", max: 3 });
  });

  it("says nothing when any choice will do, and nothing for articles", () => {
    expect(rangeHint(group("no_configuration", 0, null))).toBeNull();
    expect(rangeHint(node({ cart: { weight: 1, rangeMin: 1, rangeMax: 2 } }))).toBeNull();
  });

  it("caps a single-choice group at one", () => {
    expect(rangeHint(group("single_choice", 0, null))).toEqual({ kind: "upTo", max: 1 });
    expect(rangeHint(group("single_choice", 1, 3))).toEqual({ kind: "exactly", count: 1 });
  });
});

describe("catalogue layout", () => {
  it("tells groups of articles (sections) from groups of options", () => {
    const options = group("single_choice", 0, 1, [node({ category: "option" })]);
    expect(holdsArticles(options)).toBe(false);
    expect(holdsArticles(group("complex", 0, null, [group("multiple_choice", 0, null, [node({})])]))).toBe(true);
  });
});

describe("chosen options", () => {
  it("reads checkboxes and one radio button per single-choice group, ignoring 'none' and duplicates", () => {
    const form = new FormData();
    form.append("optionNodeId", "3");
    form.append("optionNodeId", "3");
    form.append(optionFieldName(group("single_choice", 0, 1)), "7");
    form.append("optionNodeId.9", "");
    form.append("nodeId", "2");
    expect(chosenOptionIds(form)).toEqual([3, 7]);
    expect(optionFieldName(group("multiple_choice", 0, 2))).toBe("optionNodeId");
  });
});

describe("quantity maximum", () => {
  const article = (remaining: number | null) =>
    node({ id: 10, stock: remaining === null ? null : { display: "available", remaining, maximum: 100 } });

  it("is the stock left, or the room left in the basket when that is smaller", () => {
    expect(quantityMax(article(3), { heldCount: 0, maxItemsPerBasket: 10 })).toBe(3);
    expect(quantityMax(article(null), { heldCount: 2, maxItemsPerBasket: 5 })).toBe(3);
    expect(quantityMax(article(0), { heldCount: 0, maxItemsPerBasket: 10 })).toBe(0);
    expect(quantityMax(article(8), { heldCount: 12, maxItemsPerBasket: 10 })).toBe(0);
  });
});

describe("finding an article in the tree", () => {
  it("finds it in the groups below, and not an option of the same id", () => {
    const wanted = node({ id: 10 });
    const root = node({
      id: 1,
      category: "complex",
      children: [
        node({ id: 9, children: [node({ id: 11, category: "option" })] }),
        group("multiple_choice", 0, 2, [wanted]),
      ],
    });
    expect(findArticle(root, 10)).toBe(wanted);
    expect(findArticle(root, 11)).toBeNull();
    expect(findArticle(root, 99)).toBeNull();
  });
});
