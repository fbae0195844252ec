// The catalogue read from the database: one event's element tree with every rule linked to it, in a fixed number
// of queries (catalogue.ts keeps it per catalogue version).
import { asc, type Db, eq, schema } from "@ticketing/db";
import type { AccessRule, AvailabilityWindow } from "@ticketing/shared/availability";
import type { Condition } from "@ticketing/shared/conditions";
import { notFound } from "../../lib/errors.ts";

type NodeRow = typeof schema.nodes.$inferSelect;
type ConfigurationRow = typeof schema.nodeConfigurations.$inferSelect;
type CartRow = typeof schema.nodeCartConfigurations.$inferSelect;
export type LimitRow = typeof schema.nodeLimits.$inferSelect;
export type RuleRow = typeof schema.nodePriceRules.$inferSelect;

type ExtraInfoGroupRow = typeof schema.nodeExtraInfoGroups.$inferSelect;
type ExtraInfoRow = typeof schema.nodeExtraInfos.$inferSelect;
export type FormGroup = ExtraInfoGroupRow & { extraInfos: ExtraInfoRow[] };

export interface CatalogueNode extends NodeRow {
  configuration: ConfigurationRow;
  cart: CartRow;
  children: CatalogueNode[];
  accesses: AccessRule[];
  availabilities: AvailabilityWindow[];
  /** the tags' names, in English and French (docs/decisions/0043) */
  tags: { name: string; nameFr: string }[];
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
      tags: tagRows
        .filter((t) => t.nodeConfigurationId === configuration.id)
        .map((t) => ({ name: t.name, nameFr: t.nameFr })),
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
