// The element tree's resources (docs/design.md §3): ra-data-simple-rest CRUD over the tables of the tree, scoped to the
// events the user may see, writes refused unless the event is a draft (or the user a superuser). One engine; each
// resource says what it adds: linked configurations, list filters, references, checks and consequences.
import { and, type Database, type Db, eq, inArray, run, schema } from "@ticketing/db";
import { toSnake } from "@ticketing/shared/case";
import type { RegistrationModule } from "@ticketing/shared/schemas/catalogue";
import { invalid, notFound } from "../../lib/errors.ts";
import { idFilter, type ListOptions, type ListQuery, listPage } from "../../lib/list-query.ts";
import { getVisibleEvent, inVisibleEvents, type User } from "../accounts/access.ts";
import { startEventChange } from "../events/event-changes.ts";
import { loadCatalogue } from "./catalogue.ts";
import {
  type CatalogueResource,
  columnsOf,
  type LinkTable,
  type ResourceSpec,
  type Row,
  specOf,
} from "./resource-specs.ts";

async function withLinks(db: Db, spec: ResourceSpec, rows: Row[]): Promise<Row[]> {
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

async function present(db: Db, spec: ResourceSpec, rows: Row[]): Promise<Row[]> {
  const linked = await withLinks(db, spec, rows);
  return spec.decorate ? spec.decorate(linked, [...new Set(rows.map((r) => r.eventId))], db) : linked;
}

const presentOne = async (db: Db, spec: ResourceSpec, row: Row) => (await present(db, spec, [row]))[0] as Row;

/** Referenced ids (parent, configuration, links…) must belong to the same event. */
async function checkReferences(db: Db, spec: ResourceSpec, eventId: number, body: Record<string, unknown>) {
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
      throw invalid("errors.parent_not_in_event", { [toSnake(field)]: "errors.parent_not_in_event" });
  }
}

/** The row and its event, if the user may see it; otherwise 404. */
async function loadVisible(db: Db, user: User, spec: ResourceSpec, id: number) {
  const { table } = spec;
  const row = (await db.select().from(table).where(eq(table.id, id)).get()) as Row | undefined;
  if (!row) throw notFound();
  const event = await getVisibleEvent(db, user, row.eventId);
  return { row, event };
}

/** Links a row to the configurations it applies to (each once), inside the caller's transaction. */
function* linkConfigurations(tx: Db, link: LinkTable, targetId: number, configurationIds: number[]) {
  if (configurationIds.length === 0) return;
  const values = [...new Set(configurationIds)].map((id) => ({ nodeConfigurationId: id, targetId }));
  yield* run(
    tx
      .insert(link)
      .values(values as never)
      .run(),
  );
}

/** A page of a resource's rows in the events the user may see. */
export async function listCatalogueRows(
  db: Db,
  user: User,
  resource: CatalogueResource,
  query: ListQuery,
): Promise<{ rows: Row[]; total: number }> {
  const spec = specOf(resource);
  const { table } = spec;
  const where = and(
    await inVisibleEvents(db, user, table.eventId),
    idFilter(query, "eventId", table.eventId),
    idFilter(query, "id", table.id),
    ...Object.entries(spec.filters ?? {}).map(([key, column]) => idFilter(query, key, column)),
  );
  const page = await listPage(db, table, where, query, columnsOf(resource));
  return { rows: await present(db, spec, page.rows as Row[]), total: page.total };
}

/** One row of an event the user may see; otherwise 404. */
export async function getCatalogueRow(db: Db, user: User, resource: CatalogueResource, id: number): Promise<Row> {
  const spec = specOf(resource);
  const { row } = await loadVisible(db, user, spec, id);
  return presentOne(db, spec, row);
}

/** Adds a row to a draft event the user may see (any event for a superuser). */
export async function createCatalogueRow(
  database: Database,
  user: User,
  resource: CatalogueResource,
  body: Record<string, unknown> & { eventId: number; nodeConfigurationIds?: number[] },
  supportEmail: string,
): Promise<Row> {
  const spec = specOf(resource);
  const event = await getVisibleEvent(database.db, user, body.eventId);
  const change = startEventChange(event, user, supportEmail);
  await checkReferences(database.db, spec, event.id, body);
  const { nodeConfigurationIds, ...values } = body;
  await spec.validate?.(values, undefined, database.db);
  const created = await database.transaction(function* (tx) {
    yield* change.record(tx);
    const row = (yield* run(
      tx
        .insert(spec.table)
        .values(values as never)
        .returning()
        .get(),
    )) as Row;
    if (spec.link) yield* linkConfigurations(tx, spec.link, row.id, nodeConfigurationIds ?? []);
    return row;
  });
  return presentOne(database.db, spec, created);
}

/** Changes a row of a draft event the user may see; the read-only fields the admin sends back are ignored. */
export async function updateCatalogueRow(
  database: Database,
  user: User,
  resource: CatalogueResource,
  id: number,
  body: Record<string, unknown>,
  supportEmail: string,
): Promise<Row> {
  const spec = specOf(resource);
  const { table } = spec;
  const { row, event } = await loadVisible(database.db, user, spec, id);
  const change = startEventChange(event, user, supportEmail);
  const {
    id: _id,
    eventId: _eventId,
    nodeConfigurationIds,
    reserved: _r,
    sold: _s,
    remaining: _m,
    used: _u,
    testingUsed: _t,
    waiting: _w,
    testingWaiting: _tw,
    childrenIds: _c,
    ...values
  } = body;
  await checkReferences(database.db, spec, event.id, body);
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
    let isChanged = Object.keys(values).some((key) => JSON.stringify(next[key]) !== JSON.stringify(row[key]));
    if (spec.link && Array.isArray(nodeConfigurationIds)) {
      const { link } = spec;
      const before = yield* run(
        tx.select({ id: link.nodeConfigurationId }).from(link).where(eq(link.targetId, row.id)).all(),
      );
      const sorted = (ids: unknown[]) => JSON.stringify([...new Set(ids)].sort());
      isChanged ||= sorted(before.map((linked) => linked.id)) !== sorted(nodeConfigurationIds);
      yield* run(tx.delete(link).where(eq(link.targetId, row.id)).run());
      yield* linkConfigurations(tx, link, row.id, nodeConfigurationIds as number[]);
    }
    if (spec.afterUpdate && catalogue) yield* spec.afterUpdate(tx, next, values, catalogue);
    // The form sent back as it was changes nothing: an approved event keeps its approval (ADR 0031).
    if (isChanged) yield* change.record(tx);
    return next;
  });
  return presentOne(database.db, spec, updated);
}

/** Deletes a row of a draft event the user may see, and answers it as it was. */
export async function deleteCatalogueRow(
  database: Database,
  user: User,
  resource: CatalogueResource,
  id: number,
  supportEmail: string,
): Promise<Row> {
  const spec = specOf(resource);
  const { row, event } = await loadVisible(database.db, user, spec, id);
  const change = startEventChange(event, user, supportEmail);
  spec.beforeDelete?.(row);
  const presented = await presentOne(database.db, spec, row);
  await database.transaction(function* (tx) {
    yield* change.record(tx);
    yield* run(tx.delete(spec.table).where(eq(spec.table.id, row.id)).run());
  });
  return presented;
}

/** The registration modules' list: one event's, named by the `event` (or `event_id`) filter. */
export const REGISTRATION_MODULE_LIST: ListOptions = { sortable: ["id"], idFilters: ["event", "eventId"] };

/**
 * docs/specification.md §7 "registration modules list": the ticket office and the editor read the root node from it.
 */
export async function listRegistrationModules(
  db: Db,
  user: User,
  query: ListQuery,
): Promise<{ rows: RegistrationModule[]; total: number }> {
  const [eventId] = (query.filter.event ?? query.filter.eventId ?? []) as number[];
  if (eventId === undefined) throw invalid("errors.event_filter_required", { event: "errors.event_filter_required" });
  const event = await getVisibleEvent(db, user, eventId);
  const rows = await db
    .select()
    .from(schema.registrationModules)
    .where(eq(schema.registrationModules.eventId, event.id))
    .all();
  return { rows, total: rows.length };
}
