// Back-office users as others see them: yourself, people who share a unit with you, anyone for a superuser.

import type { Database } from "@ticketing/db";
import { and, eq, inArray, run, schema } from "@ticketing/db";
import type { User as UserAnswer, UserUpdate } from "@ticketing/shared/schemas/users";
import { notFound } from "../../lib/errors.ts";
import { type User, visibleUnitIds } from "./access.ts";

export const presentUser = (user: User): UserAnswer => ({
  id: user.id,
  email: user.email,
  username: user.username,
  firstName: user.firstName,
  lastName: user.lastName,
  isActive: user.isActive,
  isSuperuser: user.isSuperuser,
  personalUnitId: user.personalUnitId,
});

/** Changes the caller's own name; the other fields are not theirs to change. */
export async function updateOwnName(database: Database, user: User, changes: UserUpdate): Promise<UserAnswer> {
  const updated = await database.transaction(function* (tx) {
    return yield* run(
      tx
        .update(schema.users)
        .set({ firstName: changes.firstName ?? user.firstName, lastName: changes.lastName ?? user.lastName })
        .where(eq(schema.users.id, user.id))
        .returning()
        .get(),
    );
  });
  return presentUser(updated ?? user);
}

/** Yourself, people who share a unit with you, anyone for a superuser; otherwise 404. */
export async function getVisibleUser(database: Database, viewer: User, id: number): Promise<UserAnswer> {
  const { db } = database;
  const target = await db.select().from(schema.users).where(eq(schema.users.id, id)).get();
  if (!target) throw notFound();
  if (target.id !== viewer.id) {
    const units = await visibleUnitIds(db, viewer);
    if (units !== null) {
      const shared = units.length
        ? await db
            .select({ id: schema.memberships.id })
            .from(schema.memberships)
            .where(and(eq(schema.memberships.userId, id), inArray(schema.memberships.unitId, units)))
            .get()
        : undefined;
      if (!shared) throw notFound();
    }
  }
  return presentUser(target);
}
