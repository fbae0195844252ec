// Units (issue 3): members see, owners manage, superusers do everything.

import { and, type Database, type Db, eq, inArray, run, schema } from "@ticketing/db";
import type { UnitRole } from "@ticketing/shared/constants";
import type { Unit, UnitCreate, UnitStripeSettings, UnitUpdate } from "@ticketing/shared/schemas/units";
import type { Config } from "../../env.ts";
import { forbidden, notFound } from "../../lib/errors.ts";
import { idFilter, type ListOptions, type ListQuery, listPage } from "../../lib/list-query.ts";
import { encryptSecret } from "../../lib/secrets.ts";
import { inVisibleUnits, type User } from "./access.ts";

type UnitRow = typeof schema.units.$inferSelect;

const UNIT_COLUMNS = { id: schema.units.id, name: schema.units.name } as const;

/** The units list: sorted by name unless told, filtered by `id`. */
export const UNIT_LIST: ListOptions = { sortable: Object.keys(UNIT_COLUMNS), defaultSort: "name", idFilters: ["id"] };

/** The user's role in the unit; null when not a member. An API token is a member of its own unit only. */
export async function roleIn(db: Db, user: User, unitId: number): Promise<UnitRole | null> {
  if (user.apiToken) return user.apiToken.unitId === unitId ? "member" : null;
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

/** Owners and superusers manage a unit; a member who may see it gets 403, and so does an API token of the unit. */
export async function managedUnit(db: Db, user: User, unitId: number): Promise<UnitRow> {
  const { unit, role } = await visibleUnit(db, user, unitId);
  if (user.apiToken) throw forbidden("errors.api_token_staff_only");
  if (role !== "owner" && !user.isSuperuser) throw forbidden("errors.unit_owner_only");
  return unit;
}

/** Whether the unit's Stripe account is set: its secret key and webhook signing secret are both stored. */
export const isStripeConfigured = (unit: Pick<UnitRow, "stripeSecretKeyEncrypted" | "stripeWebhookSecretEncrypted">) =>
  unit.stripeSecretKeyEncrypted !== null && unit.stripeWebhookSecretEncrypted !== null;

/** The units among `unitIds` whose Stripe account is set. */
export async function unitsWithStripe(db: Db, unitIds: number[]): Promise<Set<number>> {
  if (unitIds.length === 0) return new Set();
  const rows = await db
    .select({
      id: schema.units.id,
      stripeSecretKeyEncrypted: schema.units.stripeSecretKeyEncrypted,
      stripeWebhookSecretEncrypted: schema.units.stripeWebhookSecretEncrypted,
    })
    .from(schema.units)
    .where(inArray(schema.units.id, [...new Set(unitIds)]))
    .all();
  return new Set(rows.filter(isStripeConfigured).map((row) => row.id));
}

/** Where Stripe sends the unit's events: what its owner gives Stripe's dashboard as the webhook endpoint. */
export const stripeWebhookUrl = (publicUrl: string, unitId: number) =>
  `${publicUrl}/api/v1/payments/stripe/webhook/${unitId}`;

/** The unit as answered: never its Stripe secrets, only whether they are set. */
function present(unit: UnitRow, role: UnitRole | null, publicUrl: string): Unit {
  const { stripeSecretKeyEncrypted: _key, stripeWebhookSecretEncrypted: _webhook, ...fields } = unit;
  return {
    ...fields,
    currentUserRole: role,
    isStripeConfigured: isStripeConfigured(unit),
    stripeWebhookUrl: stripeWebhookUrl(publicUrl, unit.id),
  };
}

/** A page of the units the user belongs to (every unit for a superuser), each with the user's role. */
export async function listUnits(
  database: Database,
  user: User,
  list: ListQuery,
  publicUrl: string,
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
  return {
    rows: rows.map((unit) => present(unit, roles.find((m) => m.unitId === unit.id)?.role ?? null, publicUrl)),
    total,
  };
}

/** Creates a unit with the user as its owner. */
export async function createUnit(database: Database, user: User, fields: UnitCreate, publicUrl: string): Promise<Unit> {
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
  return present(unit, "owner", publicUrl);
}

/** A unit the user may see, with their role in it; otherwise 404. */
export async function getUnit(database: Database, user: User, unitId: number, publicUrl: string): Promise<Unit> {
  const { unit, role } = await visibleUnit(database.db, user, unitId);
  return present(unit, role, publicUrl);
}

/** Changes a unit its owner (or a superuser) manages; only a superuser changes the agent fees. */
export async function updateUnit(
  database: Database,
  user: User,
  unitId: number,
  body: UnitUpdate,
  publicUrl: string,
): Promise<Unit> {
  const unit = await managedUnit(database.db, user, unitId);
  const {
    id: _id,
    createdAt: _createdAt,
    currentUserRole: _role,
    isStripeConfigured: _stripe,
    stripeWebhookUrl: _webhookUrl,
    ...changes
  } = body;
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
  return present(updated ?? unit, await roleIn(database.db, user, unit.id), publicUrl);
}

/** Writes (or clears, with null) the Stripe secrets of a unit its owner (or a superuser) manages. */
async function writeStripeSecrets(
  database: Database,
  user: User,
  unitId: number,
  secrets: { stripeSecretKeyEncrypted: string | null; stripeWebhookSecretEncrypted: string | null },
  publicUrl: string,
): Promise<Unit> {
  const unit = await managedUnit(database.db, user, unitId);
  const updated = await database.transaction(function* (tx) {
    return yield* run(tx.update(schema.units).set(secrets).where(eq(schema.units.id, unit.id)).returning().get());
  });
  return present(updated ?? unit, await roleIn(database.db, user, unit.id), publicUrl);
}

/**
 * Sets the unit's Stripe account (owners and superusers): both secrets stored encrypted with the product's secret
 * (lib/secrets.ts), never answered.
 */
export async function setUnitStripe(
  database: Database,
  config: Pick<Config, "publicUrl" | "secretKey">,
  user: User,
  unitId: number,
  settings: UnitStripeSettings,
): Promise<Unit> {
  const secrets = {
    stripeSecretKeyEncrypted: encryptSecret(config.secretKey, settings.secretKey),
    stripeWebhookSecretEncrypted: encryptSecret(config.secretKey, settings.webhookSecret),
  };
  return writeStripeSecrets(database, user, unitId, secrets, config.publicUrl);
}

/**
 * Forgets the unit's Stripe account (owners and superusers). Its events that pay by Stripe then take no online
 * payment until it is set again or they choose the demo module (services/payments `chooseModule`: 409).
 */
export async function removeUnitStripe(database: Database, user: User, unitId: number, publicUrl: string) {
  const cleared = { stripeSecretKeyEncrypted: null, stripeWebhookSecretEncrypted: null };
  return writeStripeSecrets(database, user, unitId, cleared, publicUrl);
}
