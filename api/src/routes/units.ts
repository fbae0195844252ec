import { asc, count, eq, inArray, schema } from "@ticketing/db";
import { Hono } from "hono";
import type { AppEnv } from "../context.ts";
import { notFound } from "../lib/errors.ts";
import { answer, idParam } from "../lib/http.ts";
import { parseListQuery, setContentRange } from "../lib/list-query.ts";
import { canSeeUnit, requireUser, visibleUnitIds } from "../services/access.ts";

export const unitRoutes = new Hono<AppEnv>();

unitRoutes.get("/", async (c) => {
  const { db } = c.get("deps").database;
  const user = await requireUser(db, c.get("auth"));
  const query = parseListQuery(c);
  const units = await visibleUnitIds(db, user);
  const where = units === null ? undefined : inArray(schema.units.id, units);
  const rows = await db
    .select()
    .from(schema.units)
    .where(where)
    .orderBy(asc(schema.units.name))
    .limit(query.limit)
    .offset(query.offset)
    .all();
  const total = (await db.select({ n: count() }).from(schema.units).where(where).get())?.n ?? 0;
  setContentRange(c, "units", query.offset, rows.length, total);
  return answer(c, rows);
});

unitRoutes.get("/:id", async (c) => {
  const { db } = c.get("deps").database;
  const user = await requireUser(db, c.get("auth"));
  const id = idParam(c);
  const unit = await db.select().from(schema.units).where(eq(schema.units.id, id)).get();
  if (!unit || !(await canSeeUnit(db, user, unit.id))) throw notFound();
  return answer(c, unit);
});
