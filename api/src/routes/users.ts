import { and, eq, inArray, run, schema } from "@ticketing/db";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context.ts";
import { notFound } from "../lib/errors.ts";
import { answer, idParam, readBody } from "../lib/http.ts";
import { requireUser, type User, visibleUnitIds } from "../services/access.ts";

export const userRoutes = new Hono<AppEnv>();

export const presentUser = (user: User) => ({
  id: user.id,
  email: user.email,
  username: user.username,
  firstName: user.firstName,
  lastName: user.lastName,
  isActive: user.isActive,
  isSuperuser: user.isSuperuser,
  personalUnitId: user.personalUnitId,
});

userRoutes.get("/me", async (c) => answer(c, presentUser(await requireUser(c.get("deps").database.db, c.get("auth")))));

userRoutes.put("/me", async (c) => {
  const { database } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  // The admin's form sends the record back: read-only fields are accepted and ignored.
  const body = await readBody(
    c,
    z
      .strictObject({
        firstName: z.string().trim().max(100),
        lastName: z.string().trim().max(100),
        id: z.unknown(),
        email: z.unknown(),
        username: z.unknown(),
        isActive: z.unknown(),
        isSuperuser: z.unknown(),
        personalUnitId: z.unknown(),
      })
      .partial(),
  );
  const updated = await database.transaction(function* (tx) {
    return yield* run(
      tx
        .update(schema.users)
        .set({ firstName: body.firstName ?? user.firstName, lastName: body.lastName ?? user.lastName })
        .where(eq(schema.users.id, user.id))
        .returning()
        .get(),
    );
  });
  return answer(c, presentUser(updated ?? user));
});

/** Yourself, people who share a unit with you, anyone for a superuser; otherwise 404. */
userRoutes.get("/:id", async (c) => {
  const { db } = c.get("deps").database;
  const user = await requireUser(db, c.get("auth"));
  const id = idParam(c);
  const target = await db.select().from(schema.users).where(eq(schema.users.id, id)).get();
  if (!target) throw notFound();
  if (target.id !== user.id) {
    const units = await visibleUnitIds(db, user);
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
  return answer(c, presentUser(target));
});
