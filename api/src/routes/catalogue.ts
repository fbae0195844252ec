// Element-tree resources (DESIGN.md 3): ra-data-simple-rest CRUD, scoped to events the user may see,
// writes refused unless the event is a draft (or the user a superuser).

import { and, asc, count, type Db, eq, inArray, run, schema } from "@ticketing/db";
import {
  EXTRA_INFO_TYPES,
  GROUP_CATEGORIES,
  LOGICAL_OPERATORS,
  NODE_CATEGORIES,
  PRICE_RULE_MODES,
  STATEMENT_OPERANDS,
  STATEMENT_OPERATORS,
  STATEMENT_SCOPES,
} from "@ticketing/shared/constants";
import { GROUP_ERROR_MESSAGES, isRangeSatisfiable } from "@ticketing/shared/groups";
import { getTableColumns } from "drizzle-orm";
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Ctx } from "../context.ts";
import { conflict, invalid, notFound } from "../lib/errors.ts";
import { answer, idParam, readBody, zId, zIsoDate } from "../lib/http.ts";
import { idFilter, listOrder, parseListQuery, setContentRange } from "../lib/list-query.ts";
import { assertEditable, getVisibleEvent, requireUser, visibleUnitIds } from "../services/access.ts";
import { type Catalogue, invalidateCatalogue, loadCatalogue, stockUsage } from "../services/catalogue.ts";
import { assertNewParent, clearLausanneTaxBelow } from "../services/tree-editing.ts";

export const catalogueRoutes = new Hono<AppEnv>();

type Row = Record<string, unknown> & { id: number; eventId: number };
type LinkTable = SQLiteTable & { nodeConfigurationId: AnySQLiteColumn; targetId: AnySQLiteColumn };

interface ResourceSpec {
  path: string;
  table: SQLiteTable & { id: AnySQLiteColumn; eventId: AnySQLiteColumn };
  fields: z.ZodRawShape;
  /** fields required on create (the others are optional) */
  required: string[];
  /** many-to-many link with node configurations, exposed as `node_configuration_ids` */
  link?: LinkTable;
  /** extra filters allowed in lists, camelCase → column */
  filters?: Record<string, AnySQLiteColumn>;
  /** checks ids referenced by the body belong to the same event */
  references?: Record<string, SQLiteTable & { id: AnySQLiteColumn; eventId: AnySQLiteColumn }>;
  decorate?: (rows: Row[], eventIds: number[], db: AppEnv["Variables"]["deps"]["database"]["db"]) => Promise<Row[]>;
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

function mountResource(spec: ResourceSpec) {
  const { table } = spec;
  // Own properties only: a list sorts by a column of its table, never by what `table[name]` inherits.
  const columns: Record<string, AnySQLiteColumn> = getTableColumns(table);
  const listOptions = {
    sortable: Object.keys(columns),
    idFilters: ["id", "eventId", ...Object.keys(spec.filters ?? {})],
  };
  const createSchema = z.strictObject({
    eventId: zId,
    ...Object.fromEntries(
      Object.entries(spec.fields).map(([k, v]) => [k, spec.required.includes(k) ? v : (v as z.ZodType).optional()]),
    ),
    ...(spec.link ? { nodeConfigurationIds: z.array(zId).max(10_000).optional() } : {}),
  });
  const updateSchema = z
    .strictObject({
      id: z.unknown(),
      eventId: z.unknown(),
      ...spec.fields,
      ...(spec.link ? { nodeConfigurationIds: z.array(zId).max(10_000) } : {}),
      reserved: z.unknown(),
      sold: z.unknown(),
      remaining: z.unknown(),
      used: z.unknown(),
      testingUsed: z.unknown(),
      childrenIds: z.unknown(),
    })
    .partial();

  async function withLinks(db: AppEnv["Variables"]["deps"]["database"]["db"], rows: Row[]): Promise<Row[]> {
    if (!spec.link || rows.length === 0) return rows;
    const link = spec.link;
    const links = await db
      .select({ configurationId: link.nodeConfigurationId, targetId: link.targetId })
      .from(link)
      .where(
        inArray(
          link.targetId,
          rows.map((r) => r.id),
        ),
      )
      .all();
    return rows.map((row) => ({
      ...row,
      nodeConfigurationIds: links.filter((l) => l.targetId === row.id).map((l) => l.configurationId as number),
    }));
  }

  async function present(db: AppEnv["Variables"]["deps"]["database"]["db"], rows: Row[]) {
    const linked = await withLinks(db, rows);
    return spec.decorate ? spec.decorate(linked, [...new Set(rows.map((r) => r.eventId))], db) : linked;
  }

  /** Referenced ids (parent, configuration, links…) must belong to the same event. */
  async function checkReferences(
    db: AppEnv["Variables"]["deps"]["database"]["db"],
    eventId: number,
    body: Record<string, unknown>,
  ) {
    const refs = {
      ...(spec.references ?? {}),
      ...(spec.link ? { nodeConfigurationIds: schema.nodeConfigurations } : {}),
    };
    for (const [field, target] of Object.entries(refs)) {
      const value = body[field];
      if (value === undefined || value === null) continue;
      const ids = Array.isArray(value) ? (value as number[]) : [value as number];
      if (ids.length === 0) continue;
      const found = await db
        .select({ id: target.id })
        .from(target)
        .where(and(inArray(target.id, ids), eq(target.eventId, eventId)))
        .all();
      if (found.length !== new Set(ids).size)
        throw invalid("errors.parent_not_in_event", {
          [field.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`)]: "errors.parent_not_in_event",
        });
    }
  }

  async function loadOwned(c: Ctx) {
    const { database } = c.get("deps");
    const user = await requireUser(database.db, c.get("auth"));
    const row = (await database.db
      .select()
      .from(table)
      .where(eq(table.id, idParam(c)))
      .get()) as Row | undefined;
    if (!row) throw notFound();
    const event = await getVisibleEvent(database.db, user, row.eventId);
    return { user, row, event };
  }

  const base = `/${spec.path}`;
  catalogueRoutes.get(base, async (c) => {
    const { db } = c.get("deps").database;
    const user = await requireUser(db, c.get("auth"));
    const query = parseListQuery(c, listOptions);
    const units = await visibleUnitIds(db, user);
    const visibleEvents =
      units === null
        ? undefined
        : inArray(
            table.eventId,
            db.select({ id: schema.events.id }).from(schema.events).where(inArray(schema.events.unitId, units)),
          );
    const where = and(
      visibleEvents,
      idFilter(query, "eventId", table.eventId),
      idFilter(query, "id", table.id),
      ...Object.entries(spec.filters ?? {}).map(([key, column]) => idFilter(query, key, column)),
    );
    const rows = (await db
      .select()
      .from(table)
      .where(where)
      .orderBy(listOrder(query, columns))
      .limit(query.limit)
      .offset(query.offset)
      .all()) as Row[];
    const total = (await db.select({ n: count() }).from(table).where(where).get())?.n ?? 0;
    setContentRange(c, spec.path, query.offset, rows.length, total);
    return answer(c, await present(db, rows));
  });

  catalogueRoutes.get(`${base}/:id`, async (c) => {
    const { row } = await loadOwned(c);
    const [presented] = await present(c.get("deps").database.db, [row]);
    return answer(c, presented);
  });

  catalogueRoutes.post(base, async (c) => {
    const { database, config } = c.get("deps");
    const user = await requireUser(database.db, c.get("auth"));
    const body = (await readBody(c, createSchema)) as Record<string, unknown> & {
      eventId: number;
      nodeConfigurationIds?: number[];
    };
    const event = await getVisibleEvent(database.db, user, body.eventId);
    assertEditable(event, user, config.supportEmail);
    await checkReferences(database.db, event.id, body);
    const { nodeConfigurationIds, ...values } = body;
    await spec.validate?.(values, undefined, database.db);
    const created = await database.transaction(function* (tx) {
      const row = (yield* run(
        tx
          .insert(table)
          .values(values as never)
          .returning()
          .get(),
      )) as Row;
      if (spec.link && nodeConfigurationIds?.length)
        yield* run(
          tx
            .insert(spec.link)
            .values(
              [...new Set(nodeConfigurationIds)].map((id) => ({ nodeConfigurationId: id, targetId: row.id })) as never,
            )
            .run(),
        );
      return row;
    });
    invalidateCatalogue(database.db, event.id);
    const [presented] = await present(database.db, [created]);
    return answer(c, presented, 201);
  });

  catalogueRoutes.put(`${base}/:id`, async (c) => {
    const { database, config } = c.get("deps");
    const { user, row, event } = await loadOwned(c);
    assertEditable(event, user, config.supportEmail);
    const body = (await readBody(c, updateSchema)) as Record<string, unknown>;
    const {
      id: _id,
      eventId: _eventId,
      nodeConfigurationIds,
      reserved: _r,
      sold: _s,
      remaining: _m,
      used: _u,
      testingUsed: _t,
      childrenIds: _c,
      ...values
    } = body;
    await checkReferences(database.db, event.id, body);
    await spec.validate?.(values, row, database.db);
    const catalogue = spec.afterUpdate ? await loadCatalogue(database.db, event.id) : null;
    const updated = await database.transaction(function* (tx) {
      const next = Object.keys(values).length
        ? ((yield* run(
            tx
              .update(table)
              .set(values as never)
              .where(eq(table.id, row.id))
              .returning()
              .get(),
          )) as Row)
        : row;
      if (spec.link && Array.isArray(nodeConfigurationIds)) {
        yield* run(tx.delete(spec.link).where(eq(spec.link.targetId, row.id)).run());
        if (nodeConfigurationIds.length)
          yield* run(
            tx
              .insert(spec.link)
              .values(
                [...new Set(nodeConfigurationIds as number[])].map((id) => ({
                  nodeConfigurationId: id,
                  targetId: row.id,
                })) as never,
              )
              .run(),
          );
      }
      if (spec.afterUpdate && catalogue) yield* spec.afterUpdate(tx, next, values, catalogue);
      return next;
    });
    invalidateCatalogue(database.db, event.id);
    const [presented] = await present(database.db, [updated]);
    return answer(c, presented);
  });

  catalogueRoutes.delete(`${base}/:id`, async (c) => {
    const { database, config } = c.get("deps");
    const { user, row, event } = await loadOwned(c);
    assertEditable(event, user, config.supportEmail);
    spec.beforeDelete?.(row);
    const [presented] = await present(database.db, [row]);
    await database.transaction(function* (tx) {
      yield* run(tx.delete(table).where(eq(table.id, row.id)).run());
    });
    invalidateCatalogue(database.db, event.id);
    return answer(c, presented);
  });
}

const title = z.string().trim().max(200);
const flag = z.boolean();

mountResource({
  path: "node-configurations",
  table: schema.nodeConfigurations,
  required: ["category"],
  fields: {
    category: z.enum(NODE_CATEGORIES),
    title,
    description: z.string().max(20_000),
    imageId: zId.nullable(),
    imageStyle: z.string().max(100).nullable(),
    itemStyle: z.string().max(100).nullable(),
    isTitleDisplayable: flag,
    isImageDisplayable: flag,
    isDescriptionDisplayable: flag,
    isTagsDisplayable: flag,
    isSubjectToLausanneTax: flag,
    isRequired: flag,
  },
  references: { imageId: schema.uploadedImages as never },
  *afterUpdate(tx, row, values, catalogue) {
    if (values.isSubjectToLausanneTax === false) yield* clearLausanneTaxBelow(tx, catalogue, row.id);
  },
});

mountResource({
  path: "node-cart-configurations",
  table: schema.nodeCartConfigurations,
  required: [],
  fields: {
    weight: z.number().int().min(0).max(1_000),
    rangeMin: z.number().int().min(0).max(1_000),
    rangeMax: z.number().int().min(0).max(1_000).nullable(),
  },
  async validate(values, row, db) {
    const min = (values.rangeMin ?? row?.rangeMin ?? 0) as number;
    const max = (values.rangeMax !== undefined ? values.rangeMax : (row?.rangeMax ?? null)) as number | null;
    const fail = () =>
      invalid(GROUP_ERROR_MESSAGES.range_unsatisfiable.key, {
        range_min: GROUP_ERROR_MESSAGES.range_unsatisfiable.key,
      });
    if (max !== null && max < min) throw fail();
    if (!row) return;
    // SPEC 5: the range must be reachable with the weights of the children of the element(s) using it.
    const owners = await db.select().from(schema.nodes).where(eq(schema.nodes.cartConfigurationId, row.id)).all();
    for (const owner of owners) {
      const children = await db
        .select({ weight: schema.nodeCartConfigurations.weight, isRequired: schema.nodeConfigurations.isRequired })
        .from(schema.nodes)
        .innerJoin(
          schema.nodeCartConfigurations,
          eq(schema.nodeCartConfigurations.id, schema.nodes.cartConfigurationId),
        )
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
  },
});

mountResource({
  path: "nodes",
  table: schema.nodes,
  required: ["parentId", "configurationId", "cartConfigurationId"],
  fields: {
    parentId: zId,
    order: z.number().int().min(0).max(1_000_000),
    configurationId: zId,
    cartConfigurationId: zId,
  },
  filters: { parentId: schema.nodes.parentId },
  async validate(values, row, db) {
    if (values.parentId === undefined) return;
    // A new parent for an existing node is a move: the same checks, so that no update makes a cycle.
    if (row) {
      if (values.parentId !== row.parentId)
        assertNewParent(await loadCatalogue(db, row.eventId), row.id, values.parentId as number);
      return;
    }
    // Options are leaves (SPEC 4): nothing is configured below them.
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
});

mountResource({
  path: "node-limits",
  table: schema.nodeLimits,
  required: ["maximum"],
  fields: {
    label: title,
    maximum: z.number().int().min(0).max(10_000_000),
    order: z.number().int().min(0),
    conditionId: zId.nullable(),
  },
  link: schema.nodeConfigurationLimits,
  references: { conditionId: schema.conditions },
  validate(values, row) {
    if (!row) return;
    // A concurrent reservation after this check is still caught by the CHECK constraint (answered 409).
    const used = Math.max(row.used as number, row.testingUsed as number);
    if (typeof values.maximum === "number" && values.maximum < used)
      throw conflict("errors.stock_below_used", { used });
  },
  async decorate(rows, eventIds, db) {
    const usage = new Map<number, { sold: number; reserved: number }>();
    for (const eventId of eventIds) for (const [k, v] of await stockUsage(db, eventId)) usage.set(k, v);
    return rows.map((row) => {
      const figures = usage.get(row.id) ?? { sold: 0, reserved: 0 };
      return { ...row, ...figures, remaining: Math.max(0, (row.maximum as number) - (row.used as number)) };
    });
  },
});

mountResource({
  path: "node-price-rules",
  table: schema.nodePriceRules,
  required: ["mode", "value"],
  fields: {
    label: title,
    mode: z.enum(PRICE_RULE_MODES),
    value: z.number().int().min(0).max(100_000_000),
    order: z.number().int().min(0),
    shouldPropagate: flag,
    conditionId: zId.nullable(),
  },
  link: schema.nodeConfigurationPriceRules,
  references: { conditionId: schema.conditions },
});

mountResource({
  path: "promotion-codes",
  table: schema.promotionCodes,
  required: ["name", "value"],
  fields: { name: title.min(1), value: z.string().trim().min(1).max(100) },
});

mountResource({
  path: "conditions",
  table: schema.conditions,
  required: [],
  fields: { name: title, logicalOperator: z.enum(LOGICAL_OPERATORS), isImplicit: flag },
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
});

mountResource({
  path: "statements",
  table: schema.statements,
  required: ["conditionId", "leftHandOperand", "operator"],
  fields: {
    conditionId: zId,
    leftHandOperand: z.enum(STATEMENT_OPERANDS),
    leftHandValue: z.string().max(200).nullable(),
    operator: z.enum(STATEMENT_OPERATORS),
    rightHandValue: z.string().max(2_000),
    scope: z.enum(STATEMENT_SCOPES),
    order: z.number().int().min(0),
  },
  filters: { conditionId: schema.statements.conditionId },
  references: { conditionId: schema.conditions },
});

mountResource({
  path: "node-tags",
  table: schema.nodeTags,
  required: ["name"],
  fields: { name: title.min(1), nodeConfigurationId: zId.nullable() },
  filters: { nodeConfigurationId: schema.nodeTags.nodeConfigurationId },
  references: { nodeConfigurationId: schema.nodeConfigurations },
});

mountResource({
  path: "node-accesses",
  table: schema.nodeAccesses,
  required: [],
  fields: { label: title, isAccessible: flag, conditionId: zId.nullable() },
  link: schema.nodeConfigurationAccesses,
  references: { conditionId: schema.conditions },
});

mountResource({
  path: "node-availabilities",
  table: schema.nodeAvailabilities,
  required: [],
  fields: { name: title, startsAt: zIsoDate.nullable(), endsAt: zIsoDate.nullable(), conditionId: zId.nullable() },
  link: schema.nodeConfigurationAvailabilities,
  references: { conditionId: schema.conditions },
  validate(values, row) {
    const startsAt = (values.startsAt ?? row?.startsAt ?? null) as string | null;
    const endsAt = (values.endsAt ?? row?.endsAt ?? null) as string | null;
    if (startsAt && endsAt && endsAt < startsAt) throw invalid("errors.dates_order", { ends_at: "errors.dates_order" });
  },
});

mountResource({
  path: "node-extra-info-groups",
  table: schema.nodeExtraInfoGroups,
  required: ["name"],
  fields: {
    name: title.min(1),
    order: z.number().int().min(0),
    isInline: flag,
    helpText: z.string().max(2_000),
    isRequired: flag,
    conditionId: zId.nullable(),
  },
  link: schema.nodeConfigurationExtraInfoGroups,
  references: { conditionId: schema.conditions },
});

mountResource({
  path: "node-extra-infos",
  table: schema.nodeExtraInfos,
  required: ["groupId", "name", "type"],
  fields: {
    groupId: zId,
    text: z.string().max(2_000),
    name: title.min(1),
    helpText: z.string().max(2_000),
    type: z.enum(EXTRA_INFO_TYPES),
    isRequired: flag,
    order: z.number().int().min(0),
    choicesJson: z.array(z.string().trim().min(1).max(200)).max(200).nullable(),
    majorJson: z
      .object({ referenceDate: z.iso.date().optional(), age: z.number().int().min(0).max(150).optional() })
      .strict()
      .nullable(),
    range: z.string().max(100).nullable(),
  },
  filters: { groupId: schema.nodeExtraInfos.groupId },
  references: { groupId: schema.nodeExtraInfoGroups },
});

mountResource({
  path: "points-of-sale",
  table: schema.pointsOfSale,
  required: ["title"],
  fields: { title: title.min(1), description: z.string().max(5_000), location: z.string().max(1_000) },
});

/** SPEC 7 "registration modules list": the ticket office and the editor read the root node from it. */
catalogueRoutes.get("/registration-modules", async (c) => {
  const { db } = c.get("deps").database;
  const user = await requireUser(db, c.get("auth"));
  const query = parseListQuery(c, { sortable: ["id"], idFilters: ["event", "eventId"] });
  const [eventId] = (query.filter.event ?? query.filter.eventId ?? []) as number[];
  if (eventId === undefined) throw invalid("errors.event_filter_required", { event: "errors.event_filter_required" });
  const event = await getVisibleEvent(db, user, eventId);
  const rows = await db
    .select()
    .from(schema.registrationModules)
    .where(eq(schema.registrationModules.eventId, event.id))
    .all();
  setContentRange(c, "registration-modules", 0, rows.length, rows.length);
  return answer(c, rows);
});
