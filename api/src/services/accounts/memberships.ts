// Memberships (issue 3): owners add and remove people and change their roles; a unit always keeps an owner.

import { and, count, type Database, type Db, eq, run, schema } from "@ticketing/db";
import type { Membership, MembershipCreate, MembershipUpdate } from "@ticketing/shared/schemas/memberships";
import type { SQL } from "drizzle-orm";
import { conflict, invalid, notFound } from "../../lib/errors.ts";
import { countRows, idFilter, type ListOptions, type ListQuery, listOrder } from "../../lib/list-query.ts";
import { inVisibleUnits, type User } from "./access.ts";
import { managedUnit, visibleUnit } from "./units.ts";

type MembershipRow = typeof schema.memberships.$inferSelect;

/** The columns the memberships list (and its export) can be ordered by. */
export const MEMBERSHIP_COLUMNS = {
  id: schema.memberships.id,
  role: schema.memberships.role,
  createdAt: schema.memberships.createdAt,
} as const;

/** The memberships list: filtered by `id`, `unitId` (or `unit`) and `userId`. */
export const MEMBERSHIP_LIST: ListOptions = {
  sortable: Object.keys(MEMBERSHIP_COLUMNS),
  idFilters: ["id", "unitId", "unit", "userId"],
};

const MEMBER = {
  id: schema.users.id,
  email: schema.users.email,
  firstName: schema.users.firstName,
  lastName: schema.users.lastName,
};

/** Memberships with their person (every membership has one: the user id is a foreign key). */
const withMember = (db: Db) =>
  db
    .select({ membership: schema.memberships, user: MEMBER })
    .from(schema.memberships)
    .innerJoin(schema.users, eq(schema.users.id, schema.memberships.userId));

async function present(db: Db, membership: MembershipRow): Promise<Membership> {
  const user = await db.select(MEMBER).from(schema.users).where(eq(schema.users.id, membership.userId)).get();
  if (!user) throw notFound();
  return { ...membership, user };
}

/** Which memberships the list (or its export) shows: those of the user's units (every unit's for a superuser). */
export async function membershipsWhere(db: Db, user: User, list: ListQuery): Promise<SQL | undefined> {
  return and(
    await inVisibleUnits(db, user, schema.memberships.unitId),
    idFilter(list, "unitId", schema.memberships.unitId) ?? idFilter(list, "unit", schema.memberships.unitId),
    idFilter(list, "userId", schema.memberships.userId),
    idFilter(list, "id", schema.memberships.id),
  );
}

/** A page of the memberships `membershipsWhere` shows. */
export async function listMemberships(
  database: Database,
  user: User,
  list: ListQuery,
): Promise<{ rows: Membership[]; total: number }> {
  const { db } = database;
  const where = await membershipsWhere(db, user, list);
  const rows = await withMember(db)
    .where(where)
    .orderBy(listOrder(list, MEMBERSHIP_COLUMNS))
    .limit(list.limit)
    .offset(list.offset)
    .all();
  const total = await countRows(db, schema.memberships, where);
  return { rows: rows.map(({ membership, user }) => ({ ...membership, user })), total };
}

/** Adds the person with an account under the email to a unit the user manages (400 without one, 409 twice). */
export async function createMembership(database: Database, user: User, body: MembershipCreate): Promise<Membership> {
  const unit = await managedUnit(database.db, user, body.unitId);
  const member = await database.db
    .select()
    .from(schema.users)
    .where(eq(schema.users.email, body.email.trim().toLowerCase()))
    .get();
  if (!member) throw invalid("errors.no_account_for_email", { email: "errors.no_account_for_email" });
  const created = await database.transaction(function* (tx) {
    const existing = yield* run(
      tx
        .select()
        .from(schema.memberships)
        .where(and(eq(schema.memberships.unitId, unit.id), eq(schema.memberships.userId, member.id)))
        .get(),
    );
    if (existing) throw conflict("errors.already_member");
    return yield* run(
      tx.insert(schema.memberships).values({ unitId: unit.id, userId: member.id, role: body.role }).returning().get(),
    );
  });
  return present(database.db, created);
}

/** A membership of a unit the user may see; otherwise 404. */
async function visibleMembership(db: Db, user: User, id: number): Promise<MembershipRow> {
  const membership = await db.select().from(schema.memberships).where(eq(schema.memberships.id, id)).get();
  if (!membership) throw notFound();
  await visibleUnit(db, user, membership.unitId);
  return membership;
}

export async function getMembership(database: Database, user: User, id: number): Promise<Membership> {
  return present(database.db, await visibleMembership(database.db, user, id));
}

/** Inside a transaction that changed a unit's memberships: refuses to leave the unit without an owner. */
function* keepAnOwner(tx: Db, unitId: number) {
  const owners = yield* run(
    tx
      .select({ n: count() })
      .from(schema.memberships)
      .where(and(eq(schema.memberships.unitId, unitId), eq(schema.memberships.role, "owner")))
      .get(),
  );
  if ((owners?.n ?? 0) === 0) throw conflict("errors.last_owner");
}

/** Changes a role in a unit the user manages; the last owner stays one (409). */
export async function updateMembership(
  database: Database,
  user: User,
  id: number,
  body: MembershipUpdate,
): Promise<Membership> {
  const membership = await visibleMembership(database.db, user, id);
  await managedUnit(database.db, user, membership.unitId);
  const updated = await database.transaction(function* (tx) {
    const row = yield* run(
      tx
        .update(schema.memberships)
        .set({ role: body.role ?? membership.role })
        .where(eq(schema.memberships.id, membership.id))
        .returning()
        .get(),
    );
    yield* keepAnOwner(tx, membership.unitId);
    return row;
  });
  return present(database.db, updated ?? membership);
}

/** Owners remove anyone, a member may leave on their own; the last owner stays (409). Answers what was removed. */
export async function deleteMembership(database: Database, user: User, id: number): Promise<Membership> {
  const membership = await visibleMembership(database.db, user, id);
  if (membership.userId !== user.id) await managedUnit(database.db, user, membership.unitId);
  const presented = await present(database.db, membership);
  await database.transaction(function* (tx) {
    yield* run(tx.delete(schema.memberships).where(eq(schema.memberships.id, membership.id)).run());
    yield* keepAnOwner(tx, membership.unitId);
  });
  return presented;
}
