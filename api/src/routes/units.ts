// Units and their memberships (issue 3): members see, owners manage, superusers do everything.

import { and, count, type Db, eq, inArray, run, schema } from "@ticketing/db";
import { UNIT_ROLES, type UnitRole } from "@ticketing/shared/constants";
import { Hono } from "hono";
import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import { z } from "zod";
import type { AppEnv, Ctx } from "../context.ts";
import { conflict, forbidden, invalid, notFound } from "../lib/errors.ts";
import { answer, idParam, readBody, zId } from "../lib/http.ts";
import { idFilter, listOrder, parseListQuery, setContentRange } from "../lib/list-query.ts";
import { requireUser, type User, visibleUnitIds } from "../services/access.ts";

export const unitRoutes = new Hono<AppEnv>();
export const membershipRoutes = new Hono<AppEnv>();

type Unit = typeof schema.units.$inferSelect;

async function roleIn(db: Db, user: User, unitId: number): Promise<UnitRole | null> {
  const row = await db
    .select({ role: schema.memberships.role })
    .from(schema.memberships)
    .where(and(eq(schema.memberships.unitId, unitId), eq(schema.memberships.userId, user.id)))
    .get();
  return row?.role ?? null;
}

/** The unit and the user's role in it; 404 when the user may not see it. */
async function visibleUnit(db: Db, user: User, unitId: number) {
  const unit = await db.select().from(schema.units).where(eq(schema.units.id, unitId)).get();
  const role = unit ? await roleIn(db, user, unit.id) : null;
  if (!unit || (!role && !user.isSuperuser)) throw notFound();
  return { unit, role };
}

/** Owners and superusers manage a unit; a member who may see it gets 403. */
async function managedUnit(db: Db, user: User, unitId: number) {
  const { unit, role } = await visibleUnit(db, user, unitId);
  if (role !== "owner" && !user.isSuperuser) throw forbidden("errors.unit_owner_only");
  return unit;
}

const present = (unit: Unit, role: UnitRole | null) => ({ ...unit, currentUserRole: role });

const zIban = z
  .string()
  .trim()
  .max(50)
  .transform((value, ctx) => {
    if (value === "") return null;
    const iban = electronicFormatIBAN(value) ?? "";
    if (!isValidIBAN(iban)) {
      ctx.addIssue({ code: "custom", message: "errors.iban_invalid" });
      return z.NEVER;
    }
    return iban;
  });

const UnitFields = {
  name: z.string().trim().min(1, "This field is required").max(200),
  description: z.string().max(5_000),
  email: z.email("Enter a valid email address").max(254).or(z.literal("")).nullable(),
  address: z.string().max(1_000).nullable(),
  iban: zIban.nullable(),
  payoutAccountHolder: z.string().max(200).nullable(),
  agentBaseFees: z.number().int().min(0).max(1_000_000),
  agentFees: z.number().int().min(0).max(10_000),
};

const UNIT_SORTABLE = { id: schema.units.id, name: schema.units.name } as const;

unitRoutes.get("/", async (c) => {
  const { db } = c.get("deps").database;
  const user = await requireUser(db, c.get("auth"));
  const query = parseListQuery(c, { sortable: Object.keys(UNIT_SORTABLE), defaultSort: "name", idFilters: ["id"] });
  const units = await visibleUnitIds(db, user);
  const where = and(
    units === null ? undefined : inArray(schema.units.id, units),
    idFilter(query, "id", schema.units.id),
  );
  const rows = await db
    .select()
    .from(schema.units)
    .where(where)
    .orderBy(listOrder(query, UNIT_SORTABLE))
    .limit(query.limit)
    .offset(query.offset)
    .all();
  const total = (await db.select({ n: count() }).from(schema.units).where(where).get())?.n ?? 0;
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
  setContentRange(c, "units", query.offset, rows.length, total);
  return answer(
    c,
    rows.map((unit) => present(unit, roles.find((m) => m.unitId === unit.id)?.role ?? null)),
  );
});

unitRoutes.post("/", async (c) => {
  const { database } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const { agentBaseFees, agentFees, ...fields } = UnitFields;
  const body = await readBody(
    c,
    z.strictObject({
      ...fields,
      description: fields.description.optional(),
      email: fields.email.optional(),
      address: fields.address.optional(),
      iban: fields.iban.optional(),
      payoutAccountHolder: fields.payoutAccountHolder.optional(),
    }),
  );
  const unit = await database.transaction(function* (tx) {
    const created = yield* run(
      tx
        .insert(schema.units)
        .values({ ...body, email: body.email || null })
        .returning()
        .get(),
    );
    yield* run(tx.insert(schema.memberships).values({ unitId: created.id, userId: user.id, role: "owner" }).run());
    return created;
  });
  return answer(c, present(unit, "owner"), 201);
});

unitRoutes.get("/:id", async (c) => {
  const { db } = c.get("deps").database;
  const user = await requireUser(db, c.get("auth"));
  const { unit, role } = await visibleUnit(db, user, idParam(c));
  return answer(c, present(unit, role));
});

unitRoutes.put("/:id", async (c) => {
  const { database } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const unit = await managedUnit(database.db, user, idParam(c));
  const body = await readBody(
    c,
    z.strictObject({ ...UnitFields, id: z.unknown(), createdAt: z.unknown(), currentUserRole: z.unknown() }).partial(),
  );
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
  return answer(c, present(updated ?? unit, await roleIn(database.db, user, unit.id)));
});

// Memberships

async function presentMemberships(db: Db, rows: (typeof schema.memberships.$inferSelect)[]) {
  const users = rows.length
    ? await db
        .select()
        .from(schema.users)
        .where(
          inArray(
            schema.users.id,
            rows.map((r) => r.userId),
          ),
        )
        .all()
    : [];
  return rows.map((m) => {
    const u = users.find((candidate) => candidate.id === m.userId);
    return { ...m, user: u && { id: u.id, email: u.email, firstName: u.firstName, lastName: u.lastName } };
  });
}

const MEMBERSHIP_SORTABLE = {
  id: schema.memberships.id,
  role: schema.memberships.role,
  createdAt: schema.memberships.createdAt,
} as const;

membershipRoutes.get("/", async (c) => {
  const { db } = c.get("deps").database;
  const user = await requireUser(db, c.get("auth"));
  const query = parseListQuery(c, {
    sortable: Object.keys(MEMBERSHIP_SORTABLE),
    idFilters: ["id", "unitId", "unit", "userId"],
  });
  const units = await visibleUnitIds(db, user);
  const where = and(
    units === null ? undefined : inArray(schema.memberships.unitId, units),
    idFilter(query, "unitId", schema.memberships.unitId) ?? idFilter(query, "unit", schema.memberships.unitId),
    idFilter(query, "userId", schema.memberships.userId),
    idFilter(query, "id", schema.memberships.id),
  );
  const rows = await db
    .select()
    .from(schema.memberships)
    .where(where)
    .orderBy(listOrder(query, MEMBERSHIP_SORTABLE))
    .limit(query.limit)
    .offset(query.offset)
    .all();
  const total = (await db.select({ n: count() }).from(schema.memberships).where(where).get())?.n ?? 0;
  setContentRange(c, "memberships", query.offset, rows.length, total);
  return answer(c, await presentMemberships(db, rows));
});

membershipRoutes.post("/", async (c) => {
  const { database } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const body = await readBody(
    c,
    z.strictObject({
      unitId: zId,
      email: z.email("Enter a valid email address").max(254),
      role: z.enum(UNIT_ROLES).default("member"),
    }),
  );
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
  const [presented] = await presentMemberships(database.db, [created]);
  return answer(c, presented, 201);
});

async function visibleMembership(c: Ctx) {
  const { db } = c.get("deps").database;
  const user = await requireUser(db, c.get("auth"));
  const membership = await db
    .select()
    .from(schema.memberships)
    .where(eq(schema.memberships.id, idParam(c)))
    .get();
  if (!membership) throw notFound();
  await visibleUnit(db, user, membership.unitId);
  return { user, membership };
}

membershipRoutes.get("/:id", async (c) => {
  const { membership } = await visibleMembership(c);
  const [presented] = await presentMemberships(c.get("deps").database.db, [membership]);
  return answer(c, presented);
});

/** Changes a membership inside a transaction that refuses to leave the unit without an owner. */
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

membershipRoutes.put("/:id", async (c) => {
  const { database } = c.get("deps");
  const { user, membership } = await visibleMembership(c);
  await managedUnit(database.db, user, membership.unitId);
  const body = await readBody(
    c,
    z
      .strictObject({
        role: z.enum(UNIT_ROLES),
        id: z.unknown(),
        unitId: z.unknown(),
        userId: z.unknown(),
        user: z.unknown(),
        createdAt: z.unknown(),
      })
      .partial(),
  );
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
  const [presented] = await presentMemberships(database.db, [updated ?? membership]);
  return answer(c, presented);
});

membershipRoutes.delete("/:id", async (c) => {
  const { database } = c.get("deps");
  const { user, membership } = await visibleMembership(c);
  // Owners remove anyone; a member may leave on their own.
  if (membership.userId !== user.id) await managedUnit(database.db, user, membership.unitId);
  const [presented] = await presentMemberships(database.db, [membership]);
  await database.transaction(function* (tx) {
    yield* run(tx.delete(schema.memberships).where(eq(schema.memberships.id, membership.id)).run());
    yield* keepAnOwner(tx, membership.unitId);
  });
  return answer(c, presented);
});
