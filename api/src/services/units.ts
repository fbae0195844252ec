// Units (issue 3): members see, owners manage, superusers do everything.

import { and, type Database, type Db, eq, inArray, run, schema } from "@ticketing/db";
import type { UnitRole } from "@ticketing/shared/constants";
import type { Unit, UnitCreate, UnitUpdate } from "@ticketing/shared/schemas/units";
import { forbidden, notFound } from "../lib/errors.ts";
import { idFilter, type ListOptions, type ListQuery, listPage } from "../lib/list-query.ts";
import { inVisibleUnits, type User } from "./access.ts";

type UnitRow = typeof schema.units.$inferSelect;

const UNIT_COLUMNS = { id: schema.units.id, name: schema.units.name } as const;

/** The units list: sorted by name unless told, filtered by `id`. */
export const UNIT_LIST: ListOptions = { sortable: Object.keys(UNIT_COLUMNS), defaultSort: "name", idFilters: ["id"] };

/** The user's role in the unit; null when not a member. */
export async function roleIn(db: Db, user: User, unitId: number): Promise<UnitRole | null> {
  const row = await db
    .select({ role: schema.memberships.role })
    .from(schema.memberships)
    .where(and(eq(schema.memberships.unitId, unitId), eq(schema.memberships.userId, user.id)))
    .get();
  return row?.role ?? null;
}

/** The unit and the user's role in it; 404 when the user may not see it. */
export async function visibleUnit(db: Db, user: User, unitId: number) {
  const unit = await db.select().from(schema.units).where(eq(schema.units.id, unitId)).get();
  const role = unit ? await roleIn(db, user, unit.id) : null;
  if (!unit || (!role && !user.isSuperuser)) throw notFound();
  return { unit, role };
}

/** Owners and superusers manage a unit; a member who may see it gets 403. */
export async function managedUnit(db: Db, user: User, unitId: number): Promise<UnitRow> {
  const { unit, role } = await visibleUnit(db, user, unitId);
  if (role !== "owner" && !user.isSuperuser) throw forbidden("errors.unit_owner_only");
  return unit;
}

const present = (unit: UnitRow, role: UnitRole | null): Unit => ({ ...unit, currentUserRole: role });

/** A page of the units the user belongs to (every unit for a superuser), each with the user's role. */
export async function listUnits(
  database: Database,
  user: User,
  list: ListQuery,
): Promise<{ rows: Unit[]; total: number }> {
  const { db } = database;
  const where = and(await inVisibleUnits(db, user, schema.units.id), idFilter(list, "id", schema.units.id));
  const { rows, total } = await listPage(db, schema.units, where, list, UNIT_COLUMNS);
  const roles = rows.length
    ? await db
        .select()
        .from(schema.memberships)
        .where(
          and(
            eq(schema.memberships.userId, user.id),
            inArray(
              schema.memberships.unitId,
              rows.map((r) => r.id),
            ),
          ),
        )
        .all()
    : [];
  return { rows: rows.map((unit) => present(unit, roles.find((m) => m.unitId === unit.id)?.role ?? null)), total };
}

/** Creates a unit with the user as its owner. */
export async function createUnit(database: Database, user: User, fields: UnitCreate): Promise<Unit> {
  const unit = await database.transaction(function* (tx) {
    const created = yield* run(
      tx
        .insert(schema.units)
        .values({ ...fields, email: fields.email || null })
        .returning()
        .get(),
    );
    yield* run(tx.insert(schema.memberships).values({ unitId: created.id, userId: user.id, role: "owner" }).run());
    return created;
  });
  return present(unit, "owner");
}

/** A unit the user may see, with their role in it; otherwise 404. */
export async function getUnit(database: Database, user: User, unitId: number): Promise<Unit> {
  const { unit, role } = await visibleUnit(database.db, user, unitId);
  return present(unit, role);
}

/** Changes a unit its owner (or a superuser) manages; only a superuser changes the agent fees. */
export async function updateUnit(database: Database, user: User, unitId: number, body: UnitUpdate): Promise<Unit> {
  const unit = await managedUnit(database.db, user, unitId);
  const { id: _id, createdAt: _createdAt, currentUserRole: _role, ...changes } = body;
  const feesChanged =
    (changes.agentBaseFees !== undefined && changes.agentBaseFees !== unit.agentBaseFees) ||
    (changes.agentFees !== undefined && changes.agentFees !== unit.agentFees);
  if (feesChanged && !user.isSuperuser) throw forbidden("errors.agent_fees_superuser");
  // PUT takes the fields to change (docs/api.md): none (the admin saving an untouched form) answers the unit as it is.
  const updated = Object.keys(changes).length
    ? await database.transaction(function* (tx) {
        return yield* run(
          tx
            .update(schema.units)
            .set({ ...changes, ...(changes.email !== undefined ? { email: changes.email || null } : {}) })
            .where(eq(schema.units.id, unit.id))
            .returning()
            .get(),
        );
      })
    : unit;
  return present(updated ?? unit, await roleIn(database.db, user, unit.id));
}
