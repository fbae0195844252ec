// Who may export or erase a buyer's personal data, and over which events (docs/decisions/0046): superusers over
// the whole instance, an owner over the events of the units they own; a member of a unit owns none of it.
import { and, type Db, eq, inArray, schema } from "@ticketing/db";
import { forbidden, notFound } from "../../lib/errors.ts";
import type { User } from "../accounts/access.ts";

export interface Coverage {
  /** The units covered; null: every unit, and what belongs to no event (a superuser over the whole instance). */
  unitIds: number[] | null;
  unitNames: string[];
  /** The events of those units; null: every event. */
  eventIds: number[] | null;
}

/**
 * What `user` may export and erase: with `unitId`, that unit alone (404 when the user cannot see it, 403 when they
 * are only a member of it); without, every unit for a superuser, the units they own otherwise (403 for none).
 */
export async function coverageOf(db: Db, user: User, unitId?: number): Promise<Coverage> {
  const { memberships, units, events } = schema;
  let unitIds: number[] | null;
  if (user.isSuperuser) {
    if (unitId === undefined) return { unitIds: null, unitNames: [], eventIds: null };
    const unit = await db.select({ id: units.id }).from(units).where(eq(units.id, unitId)).get();
    if (!unit) throw notFound();
    unitIds = [unitId];
  } else {
    const roles = await db
      .select({ unitId: memberships.unitId, role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.userId, user.id), unitId === undefined ? undefined : eq(memberships.unitId, unitId)))
      .all();
    if (unitId !== undefined && roles.length === 0) throw notFound();
    unitIds = roles.filter((role) => role.role === "owner").map((role) => role.unitId);
    if (unitIds.length === 0) throw forbidden("errors.personal_data_owners_only");
  }
  const named = await db.select({ name: units.name }).from(units).where(inArray(units.id, unitIds)).all();
  const rows = await db.select({ id: events.id }).from(events).where(inArray(events.unitId, unitIds)).all();
  return { unitIds, unitNames: named.map((unit) => unit.name), eventIds: rows.map((row) => row.id) };
}

/** Whether a row of `eventId` (null: of no event) is covered. */
export const covers = (coverage: Coverage, eventId: number | null) =>
  coverage.eventIds === null || (eventId !== null && coverage.eventIds.includes(eventId));
