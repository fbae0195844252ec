// What a buyer may put in a basket: one article with the options they chose, checked against the catalogue (the
// article, its options, what the visitor may see now, the ranges of its option groups) and priced for them. The
// catalogue's leaf on the add-to-basket path (baskets/README.md): it reads nothing, and what it works out from the
// catalogue is kept per catalogue version, so a warm add applies the shared rules (visibility, price, ranges) itself
// and calls nothing else in the API.
import { isNodeShown } from "@ticketing/shared/availability";
import type { Visitor } from "@ticketing/shared/conditions";
import { GROUP_CATEGORIES } from "@ticketing/shared/constants";
import { type GroupError, type SelectionNode, selectionErrors } from "@ticketing/shared/groups";
import { priceForNode } from "@ticketing/shared/pricing";
import { invalid, notFound } from "../../lib/errors.ts";
import {
  ancestors,
  type Catalogue,
  type CatalogueNode,
  linkedRules,
  nodePrice,
  optionsOf,
  selectionTree,
} from "./catalogue.ts";

/** A node that may be a line of a basket, as an add needs it: worked out once per catalogue version. */
interface Sellable {
  node: CatalogueNode;
  /** the node and its ancestors when access rules or availability windows apply to one of them, else null (shown) */
  ruledLineage: CatalogueNode[] | null;
  /** its price for any visitor, unless a rule that may apply has a condition */
  price: number | undefined;
  /** the rules that may price it (as nodePrice reads them), for a price that depends on the visitor */
  rules: ReturnType<typeof linkedRules>;
  limits: NonNullable<ReturnType<Catalogue["limitsByConfiguration"]["get"]>>;
}

interface ArticleOffer {
  article: Sellable;
  options: Map<number, Sellable>;
  /** the ranges of the article and its option groups */
  tree: SelectionNode;
  /** its option groups asking for a minimum, with the weight of each of their options */
  minimums: { groupId: number; min: number; weights: Map<number, number> }[];
}

interface Offers {
  /** the whole tree's ranges, which a basket as a whole must keep */
  basketTree: SelectionNode;
  articles: Map<number, ArticleOffer | null>;
}

/** Kept as long as the catalogue is: one per catalogue version (as the written tree, docs/decisions/0019). */
const offersOf = new WeakMap<Catalogue, Offers>();

function sellable(catalogue: Catalogue, node: CatalogueNode): Sellable {
  const lineage = [node, ...ancestors(catalogue, node)];
  const conditional = lineage.some((n) =>
    (catalogue.rulesByConfiguration.get(n.configurationId) ?? []).some((rule) => rule.conditionId !== null),
  );
  return {
    node,
    ruledLineage: lineage.some((n) => n.accesses.length > 0 || n.availabilities.length > 0) ? lineage : null,
    price: conditional ? undefined : nodePrice(catalogue, node, null),
    rules: linkedRules(catalogue, node),
    limits: catalogue.limitsByConfiguration.get(node.configurationId) ?? [],
  };
}

function offerOf(catalogue: Catalogue, article: CatalogueNode): ArticleOffer {
  const minimums = article.children
    .filter(
      (group) =>
        (GROUP_CATEGORIES as readonly string[]).includes(group.configuration.category) && group.cart.rangeMin !== 0,
    )
    .map((group) => ({
      groupId: group.id,
      min: group.cart.rangeMin,
      weights: new Map(optionsOf(group).map((o) => [o.id, o.cart.weight])),
    }));
  return {
    article: sellable(catalogue, article),
    options: new Map(optionsOf(article).map((o) => [o.id, sellable(catalogue, o)])),
    tree: selectionTree(article),
    minimums,
  };
}

/** One line an add writes: the node, its price for the visitor and the stocks it takes from. */
export interface ChosenLine {
  node: CatalogueNode;
  price: number;
  limits: Sellable["limits"];
}

/**
 * The lines of one article with the options chosen (each once), checked and priced for `visitor` at `now`: 400 when
 * the node is not an article or an option is not one of its own, 404 when the visitor may not see one of them.
 * `lineErrors` are the ranges the line itself breaks (e.g. "choose one size", an option group's minimum);
 * `basketTree` the whole tree's ranges, which the basket as a whole must keep.
 */
export function chooseArticle(
  catalogue: Catalogue,
  input: { nodeId: number; optionNodeIds: number[]; visitor: Visitor; now: Date },
): { article: CatalogueNode; lines: ChosenLine[]; lineErrors: GroupError[]; basketTree: SelectionNode } {
  let offers = offersOf.get(catalogue);
  if (!offers) {
    offers = { basketTree: selectionTree(catalogue.root), articles: new Map() };
    offersOf.set(catalogue, offers);
  }
  let offer = offers.articles.get(input.nodeId);
  if (offer === undefined) {
    const node = catalogue.byId.get(input.nodeId);
    offer = node?.configuration.category === "article" ? offerOf(catalogue, node) : null;
    offers.articles.set(input.nodeId, offer);
  }
  if (!offer) throw invalid("errors.not_an_article", { node_id: "errors.not_an_article" });
  const { options: allowed } = offer;
  const chosen = [...new Set(input.optionNodeIds)].map((id) => {
    const option = allowed.get(id);
    if (!option) throw invalid("errors.invalid_option", { option_node_ids: "errors.invalid_option" });
    return option;
  });
  const sellables = [offer.article, ...chosen];
  // Only what the visitor may see now can be bought (access rules, availability windows): isVisible (catalogue.ts)
  // over the lineage kept.
  const context = { now: input.now, visitor: input.visitor, conditions: catalogue.conditions };
  if (!sellables.every((line) => line.ruledLineage?.every((n) => isNodeShown(n, context)) ?? true)) throw notFound();
  // The line itself must satisfy the ranges of the article and of its option groups (e.g. "choose one size")…
  const chosenIds = chosen.map((line) => line.node.id);
  const lineErrors = selectionErrors(offer.tree, [offer.article.node.id, ...chosenIds]);
  // …and an option group with a minimum asks for a choice even when the buyer chose nothing in it ("pick a size").
  for (const { groupId, min, weights } of offer.minimums) {
    const weight = chosenIds.reduce((sum, id) => sum + (weights.get(id) ?? 0), 0);
    if (weight < min) lineErrors.push({ kind: "below_min", nodeId: groupId, sum: weight, min });
  }
  return {
    article: offer.article.node,
    lines: sellables.map((line) => ({
      node: line.node,
      // nodePrice (catalogue.ts) for this visitor, from the rules kept.
      price: line.price ?? priceForNode({ ...line.rules, visitor: input.visitor, conditions: catalogue.conditions }),
      limits: line.limits,
    })),
    lineErrors,
    basketTree: offers.basketTree,
  };
}
