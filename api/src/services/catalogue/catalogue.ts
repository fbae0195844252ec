// The catalogue as the services use it: kept per catalogue version, and its rules (price, stock, visibility, forms,
// ranges) for one node; the back office's article list. Loading is loading.ts; the visitor's tree, visitor-tree.ts.
import { and, type Database, type Db, eq, prepared, run, schema, sql } from "@ticketing/db";
import { isNodeShown } from "@ticketing/shared/availability";
import { conditionHolds, type Visitor } from "@ticketing/shared/conditions";
import type { Language } from "@ticketing/shared/constants";
import { choicesIn, inLanguage } from "@ticketing/shared/content-language";
import type { SelectionNode } from "@ticketing/shared/groups";
import { attachedPriceRules, computePrice, type PriceRule, selectPriceRules } from "@ticketing/shared/pricing";
import { tightestStock } from "@ticketing/shared/stock";
import { invalid, notFound } from "../../lib/errors.ts";
import {
  type Catalogue,
  type CatalogueNode,
  type FormGroup,
  type LimitRow,
  loadCatalogue,
  type RuleRow,
} from "./loading.ts";

// Named here too for the services that import them from this file.
export { type Catalogue, type CatalogueNode, type FormGroup, loadCatalogue } from "./loading.ts";

/**
 * The tree and its rules change rarely and are read on every add, every buy page and every tree: kept per database
 * and event with the event's catalogue version. Triggers (migration 0006) move that version on every write to the
 * tables the catalogue is loaded from, whichever process or replica writes, so each use reads it (one primary-key
 * read) and loads the catalogue again when it moved: no process is ever served another's stale tree
 * (docs/decisions/0019). Stock counters are not part of the version and are not taken from here when they matter:
 * the add path moves them with guarded UPDATEs, the tree reads them fresh (`withFreshStock`).
 */
const catalogueCache = new WeakMap<Db, Map<number, { version: number; catalogue: Promise<Catalogue> }>>();

// The reads made on every use of a cached catalogue, built once per connection.
const catalogueVersion = prepared((db) =>
  db
    .select({ version: schema.catalogueVersions.version })
    .from(schema.catalogueVersions)
    .where(eq(schema.catalogueVersions.eventId, sql.placeholder("eventId")))
    .prepare(),
);
const stockCounters = prepared((db) =>
  db
    .select({
      id: schema.nodeLimits.id,
      maximum: schema.nodeLimits.maximum,
      // What buyers cannot take: what is held or sold, and what waiting-list entries in line ask for
      // (docs/decisions/0038). The stock they see left is the maximum less that.
      used: sql<number>`${schema.nodeLimits.used} + ${schema.nodeLimits.waiting}`,
      testingUsed: sql<number>`${schema.nodeLimits.testingUsed} + ${schema.nodeLimits.testingWaiting}`,
    })
    .from(schema.nodeLimits)
    .where(eq(schema.nodeLimits.eventId, sql.placeholder("eventId")))
    .prepare(),
);

/**
 * The event's catalogue. `knownVersion`: its version as the caller read it just now in a read of its own (the add
 * reads it with the basket, add-to-basket.ts), not read again; null when there was no version row.
 */
export async function getCatalogue(db: Db, eventId: number, knownVersion?: number | null): Promise<Catalogue> {
  const version =
    knownVersion !== undefined ? knownVersion : ((await catalogueVersion(db).get({ eventId }))?.version ?? null);
  // No version row: no such event, and nothing worth keeping (loading answers the 404).
  if (version === null) return loadCatalogue(db, eventId);
  let perEvent = catalogueCache.get(db);
  if (!perEvent) {
    perEvent = new Map();
    catalogueCache.set(db, perEvent);
  }
  const cached = perEvent.get(eventId);
  if (cached?.version === version) return cached.catalogue;
  // Tagged with the version read before loading: a write landing while it loads leaves it one version behind,
  // so the next use loads again.
  const catalogue = loadCatalogue(db, eventId);
  const entry = { version, catalogue };
  perEvent.set(eventId, entry);
  catalogue.catch(() => {
    if (perEvent.get(eventId) === entry) perEvent.delete(eventId);
  });
  return catalogue;
}

/** Each limit's maximum and counters, by id, as they are now. */
export type StockCounters = Map<number, { maximum: number; used: number; testingUsed: number }>;

export async function readStockCounters(db: Db, eventId: number): Promise<StockCounters> {
  const rows = await stockCounters(db).all({ eventId });
  return new Map(rows.map(({ id, ...counters }) => [id, counters]));
}

/**
 * The catalogue with the stock counters (and maxima) as they are now; a limit deleted since is left out. The rest
 * of a limit's row is the catalogue's, which its version keeps current.
 */
export async function withFreshStock(db: Db, catalogue: Catalogue): Promise<Catalogue> {
  const counters = await readStockCounters(db, catalogue.eventId);
  const fresh = (limit: LimitRow) => {
    const now = counters.get(limit.id);
    return now && { ...limit, ...now };
  };
  return {
    ...catalogue,
    limitsByConfiguration: new Map(
      [...catalogue.limitsByConfiguration].map(([k, list]) => [k, list.map(fresh).filter((l) => l !== undefined)]),
    ),
  };
}

/** A node's ancestors, its parent first. */
export function ancestors(catalogue: Catalogue, node: CatalogueNode): CatalogueNode[] {
  const chain: CatalogueNode[] = [];
  let parent = node.parentId === null ? undefined : catalogue.byId.get(node.parentId);
  while (parent) {
    chain.push(parent);
    parent = parent.parentId === null ? undefined : catalogue.byId.get(parent.parentId);
  }
  return chain;
}

/** The rules linked to a node's configuration, and those linked to its ancestors' (docs/design.md §4 "Price"). */
export function linkedRules(catalogue: Catalogue, node: CatalogueNode) {
  return {
    ownRules: catalogue.rulesByConfiguration.get(node.configurationId) ?? [],
    ancestorRules: ancestors(catalogue, node).flatMap(
      (a) => catalogue.rulesByConfiguration.get(a.configurationId) ?? [],
    ),
  };
}

/** The rules that apply to a node: its own, plus those its ancestors propagate (docs/design.md §4 "Price"). */
export function applicableRules(catalogue: Catalogue, node: CatalogueNode, visitor: Visitor | null): PriceRule[] {
  return selectPriceRules({ ...linkedRules(catalogue, node), visitor, conditions: catalogue.conditions });
}

/** Every rule that may price a node, whatever the visitor, as folded: the list the editor shows (and reorders). */
export function attachedRules(catalogue: Catalogue, node: CatalogueNode): RuleRow[] {
  const { ownRules, ancestorRules } = linkedRules(catalogue, node);
  return attachedPriceRules(ownRules, ancestorRules);
}

/** `visitor` null: the base price, without conditional rules (back office). */
export const nodePrice = (catalogue: Catalogue, node: CatalogueNode, visitor: Visitor | null) =>
  computePrice(applicableRules(catalogue, node, visitor));

/** Over the stocks linked to the node, in real or testing counting: the tightest, and the display to show. */
export function nodeStock(catalogue: Catalogue, node: CatalogueNode, testing: boolean) {
  const limits = (catalogue.limitsByConfiguration.get(node.configurationId) ?? []).map((limit) => ({
    ...limit,
    remaining: limit.maximum - (testing ? limit.testingUsed : limit.used),
  }));
  return tightestStock(limits);
}

/** Whether the visitor may see the node now: it and every ancestor pass their access and availability rules. */
export function isVisible(catalogue: Catalogue, node: CatalogueNode, visitor: Visitor | null, now: Date): boolean {
  const context = { now, visitor, conditions: catalogue.conditions };
  return [node, ...ancestors(catalogue, node)].every((n) => isNodeShown(n, context));
}

/** The forms of an element a visitor has to fill (a group with a condition only when it holds). */
export const formGroupsFor = (catalogue: Catalogue, node: CatalogueNode, visitor: Visitor | null) =>
  node.formGroups.filter(
    (group) => group.conditionId === null || conditionHolds(group.conditionId, catalogue.conditions, visitor),
  );

/** The element tree in the shape of the group engine (shared/groups.ts). */
export function selectionTree(node: CatalogueNode): SelectionNode {
  return {
    id: node.id,
    category: node.configuration.category,
    weight: node.cart.weight,
    rangeMin: node.cart.rangeMin,
    rangeMax: node.cart.rangeMax,
    isRequired: node.configuration.isRequired,
    children: node.children.map(selectionTree),
  };
}

/**
 * A form group as a buyer of `language` reads it (docs/decisions/0043): each text in their language, else the other
 * one's. A field's `choices` stay the English values an answer stores and is checked against; `choiceLabels`, in the
 * same order, are what the buyer reads.
 */
export function presentFormGroup(group: FormGroup, language: Language = "en") {
  return {
    id: group.id,
    name: inLanguage(group.name, group.nameFr, language),
    order: group.order,
    isInline: group.isInline,
    helpText: inLanguage(group.helpText, group.helpTextFr, language),
    isRequired: group.isRequired,
    extraInfos: group.extraInfos.map((info) => {
      const choices = info.choicesJson ?? [];
      return {
        id: info.id,
        name: inLanguage(info.name, info.nameFr, language),
        text: inLanguage(info.text, info.textFr, language),
        helpText: inLanguage(info.helpText, info.helpTextFr, language),
        type: info.type,
        isRequired: info.isRequired,
        order: info.order,
        choices,
        choiceLabels: choicesIn(choices, info.choicesFrJson, language).map((choice) => choice.label),
        major: info.majorJson ?? null,
      };
    }),
  };
}

/** Options selectable with an article: option nodes below it, directly or inside groups of options. */
export function optionsOf(article: CatalogueNode): CatalogueNode[] {
  return article.children.flatMap((child) =>
    child.configuration.category === "option"
      ? [child]
      : child.configuration.category === "article"
        ? []
        : optionsOf(child),
  );
}

/** Per limit: tickets held in open baskets and sold in validated ones (real stock), derived from the rows. */
export async function stockUsage(db: Db, eventId: number) {
  const rows = await db
    .select({
      limitId: schema.selectedNodeLimits.limitId,
      sold: sql<number>`sum(case when ${schema.baskets.status} = 'validated' then 1 else 0 end)`,
      reserved: sql<number>`sum(case when ${schema.baskets.status} != 'validated' then 1 else 0 end)`,
    })
    .from(schema.selectedNodeLimits)
    .innerJoin(schema.selectedNodes, eq(schema.selectedNodes.id, schema.selectedNodeLimits.selectedNodeId))
    .innerJoin(schema.baskets, eq(schema.baskets.id, schema.selectedNodes.basketId))
    .where(
      and(
        eq(schema.baskets.eventId, eventId),
        eq(schema.selectedNodes.status, "held"),
        eq(schema.selectedNodeLimits.isTesting, false),
      ),
    )
    .groupBy(schema.selectedNodeLimits.limitId)
    .all();
  return new Map(rows.map((r) => [r.limitId, { sold: Number(r.sold), reserved: Number(r.reserved) }]));
}

/** The back office's article list: base price and stock figures, in tree order. */
export async function listArticles(db: Db, eventId: number) {
  const catalogue = await loadCatalogue(db, eventId);
  const usage = await stockUsage(db, eventId);
  const articles: CatalogueNode[] = [];
  const walk = (node: CatalogueNode) => {
    if (node.configuration.category === "article") articles.push(node);
    node.children.forEach(walk);
  };
  walk(catalogue.root);
  return articles.map((node) => {
    const stock = nodeStock(catalogue, node, false);
    const figures = stock ? usage.get(stock.limit.id) : undefined;
    return {
      nodeId: node.id,
      parentId: node.parentId,
      configurationId: node.configurationId,
      title: node.configuration.title,
      price: nodePrice(catalogue, node, null),
      stock: stock
        ? {
            limitId: stock.limit.id,
            maximum: stock.limit.maximum,
            reserved: figures?.reserved ?? 0,
            sold: figures?.sold ?? 0,
            remaining: Math.max(0, stock.remaining),
          }
        : null,
    };
  });
}

/**
 * Adds an article with a `set` price rule and its own stock under `parentId` (default: the root), atomically;
 * `alsoWrite` runs in the same transaction (what the change does to the event's moderation: event-changes.ts).
 */
export async function addArticle(
  database: Database,
  eventId: number,
  input: { title: string; description?: string; price: number; stock: number; parentId?: number },
  alsoWrite?: (tx: Db) => Generator<unknown, void, unknown>,
) {
  return database.transaction(function* (tx) {
    if (alsoWrite) yield* alsoWrite(tx);
    const module = yield* run(
      tx.select().from(schema.registrationModules).where(eq(schema.registrationModules.eventId, eventId)).get(),
    );
    const parentId = input.parentId ?? module?.rootNodeId;
    if (!parentId) throw notFound("errors.event_not_found");
    const parent = yield* run(tx.select().from(schema.nodes).where(eq(schema.nodes.id, parentId)).get());
    if (!parent || parent.eventId !== eventId)
      throw invalid("errors.parent_not_in_event", { parent_id: "errors.parent_not_in_event" });
    const last = yield* run(
      tx
        .select({ max: sql<number | null>`max(${schema.nodes.order})` })
        .from(schema.nodes)
        .where(eq(schema.nodes.parentId, parentId))
        .get(),
    );
    const configuration = yield* run(
      tx
        .insert(schema.nodeConfigurations)
        .values({ eventId, category: "article", title: input.title, description: input.description ?? "" })
        .returning()
        .get(),
    );
    const cart = yield* run(tx.insert(schema.nodeCartConfigurations).values({ eventId }).returning().get());
    const node = yield* run(
      tx
        .insert(schema.nodes)
        .values({
          eventId,
          parentId,
          order: (last?.max ?? -1) + 1,
          configurationId: configuration.id,
          cartConfigurationId: cart.id,
        })
        .returning()
        .get(),
    );
    const priceRule = yield* run(
      tx
        .insert(schema.nodePriceRules)
        .values({ eventId, label: input.title, mode: "set", value: input.price })
        .returning()
        .get(),
    );
    yield* run(
      tx
        .insert(schema.nodeConfigurationPriceRules)
        .values({ nodeConfigurationId: configuration.id, targetId: priceRule.id })
        .run(),
    );
    const limit = yield* run(
      tx.insert(schema.nodeLimits).values({ eventId, label: input.title, maximum: input.stock }).returning().get(),
    );
    yield* run(
      tx
        .insert(schema.nodeConfigurationLimits)
        .values({ nodeConfigurationId: configuration.id, targetId: limit.id })
        .run(),
    );
    return { node, configuration, limit, priceRule };
  });
}
