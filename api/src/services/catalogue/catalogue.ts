// The element tree as the ticket office sees it: visible nodes with server-computed prices and stock display.
import { and, asc, type Database, type Db, eq, prepared, run, schema, sql } from "@ticketing/db";
import { type AccessRule, type AvailabilityWindow, isNodeShown } from "@ticketing/shared/availability";
import { snakifyKeys } from "@ticketing/shared/case";
import { type Condition, conditionHolds, type Visitor } from "@ticketing/shared/conditions";
import type { SelectionNode } from "@ticketing/shared/groups";
import { attachedPriceRules, computePrice, type PriceRule, selectPriceRules } from "@ticketing/shared/pricing";
import { tightestStock } from "@ticketing/shared/stock";
import { invalid, notFound } from "../../lib/errors.ts";

type NodeRow = typeof schema.nodes.$inferSelect;
type ConfigurationRow = typeof schema.nodeConfigurations.$inferSelect;
type CartRow = typeof schema.nodeCartConfigurations.$inferSelect;
type LimitRow = typeof schema.nodeLimits.$inferSelect;
type RuleRow = typeof schema.nodePriceRules.$inferSelect;

type ExtraInfoGroupRow = typeof schema.nodeExtraInfoGroups.$inferSelect;
type ExtraInfoRow = typeof schema.nodeExtraInfos.$inferSelect;
export type FormGroup = ExtraInfoGroupRow & { extraInfos: ExtraInfoRow[] };

export interface CatalogueNode extends NodeRow {
  configuration: ConfigurationRow;
  cart: CartRow;
  children: CatalogueNode[];
  accesses: AccessRule[];
  availabilities: AvailabilityWindow[];
  tags: string[];
  /** the forms (extra-info groups) to fill for this element, in order */
  formGroups: FormGroup[];
}

/** Everything pricing, stock, visibility and forms need for one event, loaded in a fixed number of queries. */
export interface Catalogue {
  eventId: number;
  root: CatalogueNode;
  byId: Map<number, CatalogueNode>;
  limitsByConfiguration: Map<number, LimitRow[]>;
  rulesByConfiguration: Map<number, RuleRow[]>;
  conditions: Map<number, Condition>;
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

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
      used: schema.nodeLimits.used,
      testingUsed: schema.nodeLimits.testingUsed,
    })
    .from(schema.nodeLimits)
    .where(eq(schema.nodeLimits.eventId, sql.placeholder("eventId")))
    .prepare(),
);

export async function getCatalogue(db: Db, eventId: number): Promise<Catalogue> {
  const row = await catalogueVersion(db).get({ eventId });
  // No version row: no such event, and nothing worth keeping (loading answers the 404).
  if (!row) return loadCatalogue(db, eventId);
  let perEvent = catalogueCache.get(db);
  if (!perEvent) {
    perEvent = new Map();
    catalogueCache.set(db, perEvent);
  }
  const cached = perEvent.get(eventId);
  if (cached?.version === row.version) return cached.catalogue;
  // Tagged with the version read before loading: a write landing while it loads leaves it one version behind,
  // so the next use loads again.
  const catalogue = loadCatalogue(db, eventId);
  const entry = { version: row.version, catalogue };
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

export async function loadCatalogue(db: Db, eventId: number): Promise<Catalogue> {
  const module = await db
    .select()
    .from(schema.registrationModules)
    .where(eq(schema.registrationModules.eventId, eventId))
    .get();
  if (!module?.rootNodeId) throw notFound("errors.event_not_found");
  const linked = (link: typeof schema.nodeConfigurationAccesses) =>
    db
      .select({ configurationId: link.nodeConfigurationId, targetId: link.targetId })
      .from(link)
      .innerJoin(schema.nodeConfigurations, eq(schema.nodeConfigurations.id, link.nodeConfigurationId))
      .where(eq(schema.nodeConfigurations.eventId, eventId))
      .all();
  // All link tables share one shape (db/src/schema/catalogue.ts `configurationLink`).
  const asLink = (table: unknown) => table as typeof schema.nodeConfigurationAccesses;
  const [accessRows, accessLinks, availabilityRows, availabilityLinks, groupRows, groupLinks, infoRows, tagRows] =
    await Promise.all([
      db.select().from(schema.nodeAccesses).where(eq(schema.nodeAccesses.eventId, eventId)).all(),
      linked(schema.nodeConfigurationAccesses),
      db.select().from(schema.nodeAvailabilities).where(eq(schema.nodeAvailabilities.eventId, eventId)).all(),
      linked(asLink(schema.nodeConfigurationAvailabilities)),
      db
        .select()
        .from(schema.nodeExtraInfoGroups)
        .where(eq(schema.nodeExtraInfoGroups.eventId, eventId))
        .orderBy(asc(schema.nodeExtraInfoGroups.order), asc(schema.nodeExtraInfoGroups.id))
        .all(),
      linked(asLink(schema.nodeConfigurationExtraInfoGroups)),
      db
        .select()
        .from(schema.nodeExtraInfos)
        .where(eq(schema.nodeExtraInfos.eventId, eventId))
        .orderBy(asc(schema.nodeExtraInfos.order), asc(schema.nodeExtraInfos.id))
        .all(),
      db.select().from(schema.nodeTags).where(eq(schema.nodeTags.eventId, eventId)).all(),
    ]);
  const [nodes, configurations, carts, limits, limitLinks, rules, ruleLinks, conditions, statements] =
    await Promise.all([
      db
        .select()
        .from(schema.nodes)
        .where(eq(schema.nodes.eventId, eventId))
        .orderBy(asc(schema.nodes.order), asc(schema.nodes.id))
        .all(),
      db.select().from(schema.nodeConfigurations).where(eq(schema.nodeConfigurations.eventId, eventId)).all(),
      db.select().from(schema.nodeCartConfigurations).where(eq(schema.nodeCartConfigurations.eventId, eventId)).all(),
      db.select().from(schema.nodeLimits).where(eq(schema.nodeLimits.eventId, eventId)).all(),
      linked(asLink(schema.nodeConfigurationLimits)),
      db.select().from(schema.nodePriceRules).where(eq(schema.nodePriceRules.eventId, eventId)).all(),
      linked(asLink(schema.nodeConfigurationPriceRules)),
      db.select().from(schema.conditions).where(eq(schema.conditions.eventId, eventId)).all(),
      db
        .select()
        .from(schema.statements)
        .where(eq(schema.statements.eventId, eventId))
        .orderBy(asc(schema.statements.order))
        .all(),
    ]);
  const configurationById = new Map(configurations.map((c) => [c.id, c]));
  const cartById = new Map(carts.map((c) => [c.id, c]));
  const accessById = new Map(accessRows.map((a) => [a.id, a]));
  const availabilityById = new Map(availabilityRows.map((a) => [a.id, a]));
  const formGroupById = new Map(
    groupRows.map((g) => [g.id, { ...g, extraInfos: infoRows.filter((i) => i.groupId === g.id) }]),
  );
  const accessesOf = groupBy(accessLinks, (l) => l.configurationId);
  const availabilitiesOf = groupBy(availabilityLinks, (l) => l.configurationId);
  const formGroupsOf = groupBy(groupLinks, (l) => l.configurationId);
  const pick = <T>(links: { targetId: number }[] | undefined, byTarget: Map<number, T>) =>
    (links ?? []).map((l) => byTarget.get(l.targetId)).filter((row) => row !== undefined);
  const byId = new Map<number, CatalogueNode>();
  for (const node of nodes) {
    const configuration = configurationById.get(node.configurationId);
    const cart = cartById.get(node.cartConfigurationId);
    if (!configuration || !cart) continue;
    byId.set(node.id, {
      ...node,
      configuration,
      cart,
      children: [],
      accesses: pick(accessesOf.get(configuration.id), accessById),
      availabilities: pick(availabilitiesOf.get(configuration.id), availabilityById),
      tags: tagRows.filter((t) => t.nodeConfigurationId === configuration.id).map((t) => t.name),
      formGroups: pick(formGroupsOf.get(configuration.id), formGroupById).sort(
        (a, b) => a.order - b.order || a.id - b.id,
      ),
    });
  }
  for (const node of byId.values()) if (node.parentId !== null) byId.get(node.parentId)?.children.push(node);
  const root = byId.get(module.rootNodeId);
  if (!root) throw notFound("errors.event_not_found");
  const limitById = new Map(limits.map((l) => [l.id, l]));
  const ruleById = new Map(rules.map((r) => [r.id, r]));
  const statementsByCondition = groupBy(statements, (s) => s.conditionId);
  return {
    eventId,
    root,
    byId,
    limitsByConfiguration: new Map(
      [...groupBy(limitLinks, (l) => l.configurationId)].map(([k, links]) => [
        k,
        links.map((l) => limitById.get(l.targetId)).filter((l) => l !== undefined),
      ]),
    ),
    rulesByConfiguration: new Map(
      [...groupBy(ruleLinks, (l) => l.configurationId)].map(([k, links]) => [
        k,
        links.map((l) => ruleById.get(l.targetId)).filter((r) => r !== undefined),
      ]),
    ),
    conditions: new Map(
      conditions.map((c) => [
        c.id,
        {
          logicalOperator: c.logicalOperator,
          statements: (statementsByCondition.get(c.id) ?? []).map((s) => ({
            leftHandOperand: s.leftHandOperand,
            operator: s.operator,
            rightHandValue: s.rightHandValue,
            scope: s.scope,
          })),
        },
      ]),
    ),
  };
}

function ancestors(catalogue: Catalogue, node: CatalogueNode): CatalogueNode[] {
  const chain: CatalogueNode[] = [];
  let parent = node.parentId === null ? undefined : catalogue.byId.get(node.parentId);
  while (parent) {
    chain.push(parent);
    parent = parent.parentId === null ? undefined : catalogue.byId.get(parent.parentId);
  }
  return chain;
}

/** The rules linked to a node's configuration, and those linked to its ancestors' (DESIGN.md 4 "Price"). */
function linkedRules(catalogue: Catalogue, node: CatalogueNode) {
  return {
    ownRules: catalogue.rulesByConfiguration.get(node.configurationId) ?? [],
    ancestorRules: ancestors(catalogue, node).flatMap(
      (a) => catalogue.rulesByConfiguration.get(a.configurationId) ?? [],
    ),
  };
}

/** The rules that apply to a node: its own, plus those its ancestors propagate (DESIGN.md 4 "Price"). */
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

export function presentFormGroup(group: FormGroup) {
  return {
    id: group.id,
    name: group.name,
    order: group.order,
    isInline: group.isInline,
    helpText: group.helpText,
    isRequired: group.isRequired,
    extraInfos: group.extraInfos.map((info) => ({
      id: info.id,
      name: info.name,
      text: info.text,
      helpText: info.helpText,
      type: info.type,
      isRequired: info.isRequired,
      order: info.order,
      choices: info.choicesJson ?? [],
      major: info.majorJson ?? null,
    })),
  };
}

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

function prepareNodeAnswer(catalogue: Catalogue, node: CatalogueNode, formGroups: Map<number, string>): NodeAnswer {
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
      title: configuration.title,
      description: configuration.description,
      imageUrl: configuration.imageId === null ? null : `/api/v1/uploaded-images/${configuration.imageId}/file`,
      isTitleDisplayable: configuration.isTitleDisplayable,
      isImageDisplayable: configuration.isImageDisplayable,
      isDescriptionDisplayable: configuration.isDescriptionDisplayable,
      isTagsDisplayable: configuration.isTagsDisplayable,
      isRequired: configuration.isRequired,
      tags: node.tags,
    }).slice(0, -1),
    prices: visitorPriced ? undefined : writePrices(node, priced ? nodePrice(catalogue, node, null) : null),
    tail: node.formGroups.some((group) => group.conditionId !== null)
      ? undefined
      : writeTail(node, node.formGroups, formGroups),
    limitIds: (catalogue.limitsByConfiguration.get(node.configurationId) ?? []).map((limit) => limit.id),
    children: node.children.map((child) => prepareNodeAnswer(catalogue, child, formGroups)),
  };
}

/** Kept as long as the catalogue is: one per catalogue version. */
const treeAnswers = new WeakMap<Catalogue, TreeAnswer>();

function treeAnswerOf(catalogue: Catalogue): TreeAnswer {
  let answer = treeAnswers.get(catalogue);
  if (!answer) {
    const formGroups = new Map<number, string>();
    for (const node of catalogue.byId.values())
      for (const group of node.formGroups)
        if (!formGroups.has(group.id)) formGroups.set(group.id, toJson(presentFormGroup(group)));
    answer = { root: prepareNodeAnswer(catalogue, catalogue.root, formGroups), formGroups };
    treeAnswers.set(catalogue, answer);
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
 * What the visitor may see now (access rules, availability windows), priced for them (DESIGN.md 4), with the stock
 * `counters` read for this request: the JSON of the `Tree` answer (snake_case). Visibility, conditional prices,
 * conditional forms and the stock are decided on every call; the rest was written once per catalogue version.
 */
export function writeVisitorTree(
  catalogue: Catalogue,
  counters: StockCounters,
  visitor: Visitor,
  testing: boolean,
  now: Date,
): string {
  const context = { now, visitor, conditions: catalogue.conditions };
  const { root, formGroups } = treeAnswerOf(catalogue);
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
