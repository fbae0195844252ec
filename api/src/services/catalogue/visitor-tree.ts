// The visitor's tree as the ticket office's JSON (`Tree`, snake_case): the pieces that depend neither on the visitor
// nor on the moment nor on the stock written once per catalogue version and language (docs/decisions/0019, 0043), the
// rest per request.
import { isNodeShown } from "@ticketing/shared/availability";
import { snakifyKeys } from "@ticketing/shared/case";
import type { Visitor } from "@ticketing/shared/conditions";
import type { Language } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import { tightestStock } from "@ticketing/shared/stock";
import {
  ancestors,
  type Catalogue,
  type CatalogueNode,
  type FormGroup,
  formGroupsFor,
  nodePrice,
  presentFormGroup,
  type StockCounters,
} from "./catalogue.ts";

/**
 * A node's answer as the snake_case JSON the wire carries, in the pieces that depend neither on the visitor nor on
 * the moment nor on the stock: written once per catalogue version instead of built and converted on every request
 * (the tree of 1,000 articles is ~500 KB). The pieces a visitor changes are left undefined and written per request.
 */
interface NodeAnswer {
  node: CatalogueNode;
  /** whether access rules or availability windows apply to the node itself (otherwise it is always shown) */
  ruled: boolean;
  /** `{"id":…` up to and with `"tags":[…]` */
  head: string;
  /** `,"article_calculated_price":…,"option_calculated_price":…,"stock":`, unless a rule that may apply has a condition */
  prices: string | undefined;
  /** `,"cart":{…},"extra_info_groups":[…],"children":[`, unless a form group has a condition */
  tail: string | undefined;
  /** the stocks linked to the node, whose counters are read on every request */
  limitIds: number[];
  children: NodeAnswer[];
}

interface TreeAnswer {
  root: NodeAnswer;
  /** each form group's JSON, by id */
  formGroups: Map<number, string>;
}

const toJson = (value: unknown) => JSON.stringify(snakifyKeys(value));

function writePrices(node: CatalogueNode, price: number | null) {
  const { category } = node.configuration;
  return `,"article_calculated_price":${category === "article" ? price : null},"option_calculated_price":${
    category === "option" ? price : null
  },"stock":`;
}

function writeTail(node: CatalogueNode, groups: FormGroup[], formGroups: Map<number, string>) {
  const cart = toJson({ weight: node.cart.weight, rangeMin: node.cart.rangeMin, rangeMax: node.cart.rangeMax });
  const forms = groups.map((group) => formGroups.get(group.id)).join(",");
  return `,"cart":${cart},"extra_info_groups":[${forms}],"children":[`;
}

function prepareNodeAnswer(
  catalogue: Catalogue,
  node: CatalogueNode,
  formGroups: Map<number, string>,
  language: Language,
): NodeAnswer {
  const { configuration } = node;
  const priced = configuration.category === "article" || configuration.category === "option";
  const candidates = [
    ...(catalogue.rulesByConfiguration.get(node.configurationId) ?? []),
    ...ancestors(catalogue, node).flatMap((a) => catalogue.rulesByConfiguration.get(a.configurationId) ?? []),
  ];
  const visitorPriced = priced && candidates.some((rule) => rule.conditionId !== null);
  return {
    node,
    ruled: node.accesses.length > 0 || node.availabilities.length > 0,
    head: toJson({
      id: node.id,
      parentId: node.parentId,
      order: node.order,
      configurationId: node.configurationId,
      cartConfigurationId: node.cartConfigurationId,
      category: configuration.category,
      title: inLanguage(configuration.title, configuration.titleFr, language),
      description: inLanguage(configuration.description, configuration.descriptionFr, language),
      imageUrl: configuration.imageId === null ? null : `/api/v1/uploaded-images/${configuration.imageId}/file`,
      isTitleDisplayable: configuration.isTitleDisplayable,
      isImageDisplayable: configuration.isImageDisplayable,
      isDescriptionDisplayable: configuration.isDescriptionDisplayable,
      isTagsDisplayable: configuration.isTagsDisplayable,
      isRequired: configuration.isRequired,
      tags: node.tags.map((tag) => inLanguage(tag.name, tag.nameFr, language)),
    }).slice(0, -1),
    prices: visitorPriced ? undefined : writePrices(node, priced ? nodePrice(catalogue, node, null) : null),
    tail: node.formGroups.some((group) => group.conditionId !== null)
      ? undefined
      : writeTail(node, node.formGroups, formGroups),
    limitIds: (catalogue.limitsByConfiguration.get(node.configurationId) ?? []).map((limit) => limit.id),
    children: node.children.map((child) => prepareNodeAnswer(catalogue, child, formGroups, language)),
  };
}

/**
 * Kept as long as the catalogue is: one per catalogue version and language, each text written in that language once
 * (docs/decisions/0043), never translated per request.
 */
const treeAnswers = new WeakMap<Catalogue, Map<Language, TreeAnswer>>();

function treeAnswerOf(catalogue: Catalogue, language: Language): TreeAnswer {
  let perLanguage = treeAnswers.get(catalogue);
  if (!perLanguage) {
    perLanguage = new Map();
    treeAnswers.set(catalogue, perLanguage);
  }
  let answer = perLanguage.get(language);
  if (!answer) {
    const formGroups = new Map<number, string>();
    for (const node of catalogue.byId.values())
      for (const group of node.formGroups)
        if (!formGroups.has(group.id)) formGroups.set(group.id, toJson(presentFormGroup(group, language)));
    answer = { root: prepareNodeAnswer(catalogue, catalogue.root, formGroups, language), formGroups };
    perLanguage.set(language, answer);
  }
  return answer;
}

/** Over the stocks linked to a node, in real or testing counting: as `nodeStock`, from the counters read now. */
function currentStock(limitIds: number[], counters: StockCounters, testing: boolean) {
  const levels: { maximum: number; remaining: number }[] = [];
  for (const id of limitIds) {
    const limit = counters.get(id);
    if (limit)
      levels.push({ maximum: limit.maximum, remaining: limit.maximum - (testing ? limit.testingUsed : limit.used) });
  }
  return tightestStock(levels);
}

/**
 * What the visitor may see now (access rules, availability windows), priced for them (docs/design.md §4), with the
 * stock `counters` read for this request: the JSON of the `Tree` answer (snake_case), its texts in `language`.
 * Visibility, conditional prices, conditional forms and the stock are decided on every call; the rest was written
 * once per catalogue version and language.
 */
export function writeVisitorTree(
  catalogue: Catalogue,
  counters: StockCounters,
  visitor: Visitor,
  testing: boolean,
  now: Date,
  language: Language = "en",
): string {
  const context = { now, visitor, conditions: catalogue.conditions };
  const { root, formGroups } = treeAnswerOf(catalogue, language);
  const shown = (answer: NodeAnswer) => !answer.ruled || isNodeShown(answer.node, context);
  // Pieces joined once at the end: concatenating per node would copy each subtree's text again at every level.
  const parts: string[] = [`{"event_id":${catalogue.eventId},"root":`];
  const write = (answer: NodeAnswer) => {
    const { node } = answer;
    const stock = currentStock(answer.limitIds, counters, testing);
    parts.push(
      answer.head,
      answer.prices ?? writePrices(node, nodePrice(catalogue, node, visitor)),
      stock
        ? `{"display":"${stock.display}","remaining":${Math.max(0, stock.remaining)},"maximum":${stock.limit.maximum}}`
        : "null",
      answer.tail ?? writeTail(node, formGroupsFor(catalogue, node, visitor), formGroups),
    );
    let first = true;
    for (const child of answer.children) {
      if (!shown(child)) continue;
      if (!first) parts.push(",");
      first = false;
      write(child);
    }
    parts.push("]}");
  };
  if (shown(root)) write(root);
  else parts.push("null");
  parts.push("}");
  return parts.join("");
}
