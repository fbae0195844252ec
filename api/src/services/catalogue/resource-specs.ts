// What each resource of the element tree is (its table, linked configurations, list filters, references, checks
// and consequences); the engine in catalogue-resources.ts serves them all.
import { asc, type Db, eq, inArray, schema } from "@ticketing/db";
import { GROUP_CATEGORIES } from "@ticketing/shared/constants";
import { GROUP_ERROR_MESSAGES, isRangeSatisfiable } from "@ticketing/shared/groups";
import { getTableColumns } from "drizzle-orm";
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { conflict, invalid } from "../../lib/errors.ts";
import type { ListOptions } from "../../lib/list-query.ts";
import { offerStatements, runStatements } from "../waiting-list/offers.ts";
import { type Catalogue, loadCatalogue, stockUsage } from "./catalogue.ts";
import { assertNewParent, clearLausanneTaxBelow } from "./tree-editing.ts";

/** A row as the engine reads and answers it: camelCase columns, plus what the resource adds. */
export type Row = Record<string, unknown> & { id: number; eventId: number };
export type EventTable = SQLiteTable & { id: AnySQLiteColumn; eventId: AnySQLiteColumn };
export type LinkTable = SQLiteTable & { nodeConfigurationId: AnySQLiteColumn; targetId: AnySQLiteColumn };

export interface ResourceSpec {
  table: EventTable;
  /** many-to-many link with node configurations, exposed as `node_configuration_ids` */
  link?: LinkTable;
  /** extra id filters allowed in lists, camelCase → column */
  filters?: Record<string, AnySQLiteColumn>;
  /** ids referenced by the body, which must belong to the same event */
  references?: Record<string, EventTable>;
  decorate?: (rows: Row[], eventIds: number[], db: Db) => Promise<Row[]>;
  beforeDelete?: (row: Row) => void;
  /** consequences of an update on other rows, inside its transaction */
  afterUpdate?: (
    tx: Db,
    row: Row,
    values: Record<string, unknown>,
    catalogue: Catalogue,
  ) => Generator<unknown, void, unknown>;
  /** checks across fields, on create (`current` undefined) and update */
  validate?: (values: Record<string, unknown>, current: Row | undefined, db: Db) => void | Promise<void>;
}

/** docs/specification.md §5: a range must be reachable with the weights of the children of the element(s) using it. */
export async function validateCartRange(values: Record<string, unknown>, row: Row | undefined, db: Db) {
  const min = (values.rangeMin ?? row?.rangeMin ?? 0) as number;
  const max = (values.rangeMax !== undefined ? values.rangeMax : (row?.rangeMax ?? null)) as number | null;
  const fail = () =>
    invalid(GROUP_ERROR_MESSAGES.range_unsatisfiable.key, { range_min: GROUP_ERROR_MESSAGES.range_unsatisfiable.key });
  if (max !== null && max < min) throw fail();
  if (!row) return;
  const owners = await db.select().from(schema.nodes).where(eq(schema.nodes.cartConfigurationId, row.id)).all();
  for (const owner of owners) {
    const children = await db
      .select({ weight: schema.nodeCartConfigurations.weight, isRequired: schema.nodeConfigurations.isRequired })
      .from(schema.nodes)
      .innerJoin(schema.nodeCartConfigurations, eq(schema.nodeCartConfigurations.id, schema.nodes.cartConfigurationId))
      .innerJoin(schema.nodeConfigurations, eq(schema.nodeConfigurations.id, schema.nodes.configurationId))
      .where(eq(schema.nodes.parentId, owner.id))
      .all();
    const configuration = await db
      .select()
      .from(schema.nodeConfigurations)
      .where(eq(schema.nodeConfigurations.id, owner.configurationId))
      .get();
    const isGroup = (GROUP_CATEGORIES as readonly string[]).includes(configuration?.category ?? "");
    if (!isGroup && children.length === 0) continue;
    const required = children.flatMap((child, index) => (child.isRequired ? [index] : []));
    const singleChoice = configuration?.category === "single_choice";
    if (
      !isRangeSatisfiable(
        children.map((child) => child.weight),
        min,
        max,
        { singleChoice, required },
      )
    )
      throw fail();
  }
}

export const RESOURCES = {
  "node-configurations": {
    table: schema.nodeConfigurations,
    references: { imageId: schema.uploadedImages as never },
    *afterUpdate(tx, row, values, catalogue) {
      if (values.isSubjectToLausanneTax === false) yield* clearLausanneTaxBelow(tx, catalogue, row.id);
    },
  },
  "node-cart-configurations": { table: schema.nodeCartConfigurations, validate: validateCartRange },
  nodes: {
    table: schema.nodes,
    filters: { parentId: schema.nodes.parentId },
    async validate(values, row, db) {
      if (values.parentId === undefined) return;
      // A new parent for an existing node is a move: the same checks, so that no update makes a cycle.
      if (row) {
        if (values.parentId !== row.parentId)
          assertNewParent(await loadCatalogue(db, row.eventId), row.id, values.parentId as number);
        return;
      }
      // Options are leaves (docs/specification.md §4): nothing is configured below them.
      const parent = await db
        .select({ category: schema.nodeConfigurations.category })
        .from(schema.nodes)
        .innerJoin(schema.nodeConfigurations, eq(schema.nodeConfigurations.id, schema.nodes.configurationId))
        .where(eq(schema.nodes.id, values.parentId as number))
        .get();
      if (parent?.category === "option") throw invalid("errors.option_leaf", { parent_id: "errors.option_leaf" });
    },
    references: {
      parentId: schema.nodes,
      configurationId: schema.nodeConfigurations,
      cartConfigurationId: schema.nodeCartConfigurations,
    },
    async decorate(rows, eventIds, db) {
      const all = eventIds.length
        ? await db
            .select({ id: schema.nodes.id, parentId: schema.nodes.parentId, order: schema.nodes.order })
            .from(schema.nodes)
            .where(inArray(schema.nodes.eventId, eventIds))
            .orderBy(asc(schema.nodes.order), asc(schema.nodes.id))
            .all()
        : [];
      return rows.map((row) => ({ ...row, childrenIds: all.filter((n) => n.parentId === row.id).map((n) => n.id) }));
    },
    beforeDelete(row) {
      if (row.parentId === null) throw conflict("errors.root_node_delete");
    },
  },
  "node-limits": {
    table: schema.nodeLimits,
    link: schema.nodeConfigurationLimits,
    references: { conditionId: schema.conditions },
    validate(values, row) {
      if (!row) return;
      // A concurrent reservation after this check is still caught by the CHECK constraint (answered 409).
      const used = Math.max(row.used as number, row.testingUsed as number);
      if (typeof values.maximum === "number" && values.maximum < used)
        throw conflict("errors.stock_below_used", { used });
    },
    // A stock raised while entries wait is offered to them in the raise's own transaction (docs/decisions/0038).
    *afterUpdate(tx) {
      yield* runStatements(tx, offerStatements(new Date().toISOString()));
    },
    async decorate(rows, eventIds, db) {
      const usage = new Map<number, { sold: number; reserved: number }>();
      for (const eventId of eventIds) for (const [k, v] of await stockUsage(db, eventId)) usage.set(k, v);
      return rows.map((row) => {
        const figures = usage.get(row.id) ?? { sold: 0, reserved: 0 };
        // As buyers see it: what waiting-list entries ask for is not left for them.
        const taken = (row.used as number) + ((row.waiting as number | undefined) ?? 0);
        return { ...row, ...figures, remaining: Math.max(0, (row.maximum as number) - taken) };
      });
    },
  },
  "node-price-rules": {
    table: schema.nodePriceRules,
    link: schema.nodeConfigurationPriceRules,
    references: { conditionId: schema.conditions },
  },
  "promotion-codes": { table: schema.promotionCodes },
  conditions: {
    table: schema.conditions,
    async decorate(rows, _eventIds, db) {
      const statements = rows.length
        ? await db
            .select()
            .from(schema.statements)
            .where(
              inArray(
                schema.statements.conditionId,
                rows.map((r) => r.id),
              ),
            )
            .orderBy(asc(schema.statements.order), asc(schema.statements.id))
            .all()
        : [];
      return rows.map((row) => ({ ...row, statements: statements.filter((s) => s.conditionId === row.id) }));
    },
  },
  statements: {
    table: schema.statements,
    filters: { conditionId: schema.statements.conditionId },
    references: { conditionId: schema.conditions },
  },
  "node-tags": {
    table: schema.nodeTags,
    filters: { nodeConfigurationId: schema.nodeTags.nodeConfigurationId },
    references: { nodeConfigurationId: schema.nodeConfigurations },
  },
  "node-accesses": {
    table: schema.nodeAccesses,
    link: schema.nodeConfigurationAccesses,
    references: { conditionId: schema.conditions },
  },
  "node-availabilities": {
    table: schema.nodeAvailabilities,
    link: schema.nodeConfigurationAvailabilities,
    references: { conditionId: schema.conditions },
    validate(values, row) {
      const startsAt = (values.startsAt ?? row?.startsAt ?? null) as string | null;
      const endsAt = (values.endsAt ?? row?.endsAt ?? null) as string | null;
      if (startsAt && endsAt && endsAt < startsAt)
        throw invalid("errors.dates_order", { ends_at: "errors.dates_order" });
    },
  },
  "node-extra-info-groups": {
    table: schema.nodeExtraInfoGroups,
    link: schema.nodeConfigurationExtraInfoGroups,
    references: { conditionId: schema.conditions },
  },
  "node-extra-infos": {
    table: schema.nodeExtraInfos,
    filters: { groupId: schema.nodeExtraInfos.groupId },
    references: { groupId: schema.nodeExtraInfoGroups },
  },
  "points-of-sale": { table: schema.pointsOfSale },
} satisfies Record<string, ResourceSpec>;

/** The resources the engine serves, by their path. */
export type CatalogueResource = keyof typeof RESOURCES;

export const specOf = (resource: CatalogueResource): ResourceSpec => RESOURCES[resource];

// Own properties only: a list sorts by a column of its table, never by what `table[name]` inherits.
export const columnsOf = (resource: CatalogueResource): Record<string, AnySQLiteColumn> =>
  getTableColumns(specOf(resource).table);

/** Each resource's list: sortable by any of its columns, filtered by id, event and its own filters. */
export const CATALOGUE_LISTS = Object.fromEntries(
  (Object.keys(RESOURCES) as CatalogueResource[]).map((resource): [CatalogueResource, ListOptions] => [
    resource,
    {
      sortable: Object.keys(columnsOf(resource)),
      idFilters: ["id", "eventId", ...Object.keys(specOf(resource).filters ?? {})],
    },
  ]),
) as Record<CatalogueResource, ListOptions>;
