// A unit's webhook endpoints as its owners manage them (docs/decisions/0045-webhooks.md): owners and superusers
// only (a member gets 403, anybody else 404, as for a unit that does not exist), never an API token.
import { randomBytes } from "node:crypto";
import { and, type Database, desc, eq, inArray, run, schema } from "@ticketing/db";
import type { Webhook, WebhookCreate, WebhookDelivery, WebhookUpdate } from "@ticketing/shared/schemas/webhooks";
import { WEBHOOK_SECRET_PREFIX } from "@ticketing/shared/webhook-signature";
import { conflict, notFound } from "../../lib/errors.ts";
import { decryptSecret, encryptSecret } from "../../lib/secrets.ts";
import { newMessageId } from "../../lib/webhook-outbox.ts";
import type { User } from "../accounts/access.ts";
import { managedUnit } from "../accounts/units.ts";

const { webhookEndpoints: endpoints, webhookDeliveries: deliveries, webhookAttempts: attempts } = schema;
type EndpointRow = typeof endpoints.$inferSelect;
/** The database, and the product's secret that seals the endpoints' secrets. */
type Deps = { database: Database; secretKey: string };

/** A new secret: `whsec_` and 24 random bytes in base64 (the bytes are the HMAC key). */
export const newWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString("base64")}`;

/** The endpoint as owners see it, its secret decrypted (empty if the product's secret changed since: roll it). */
const present = (row: EndpointRow, productSecret: string): Webhook => ({
  id: row.id,
  unitId: row.unitId,
  url: row.url,
  description: row.description,
  events: row.events as Webhook["events"],
  secret: decryptSecret(productSecret, row.secretEncrypted) ?? "",
  enabled: row.enabled,
  failingSince: row.failingSince,
  disabledAt: row.disabledAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** An endpoint of a unit the user manages; 404 for one of another unit. */
async function managedEndpoint(database: Database, user: User, unitId: number, webhookId: number) {
  await managedUnit(database.db, user, unitId);
  const row = await database.db
    .select()
    .from(endpoints)
    .where(and(eq(endpoints.id, webhookId), eq(endpoints.unitId, unitId)))
    .get();
  if (!row) throw notFound();
  return row;
}

export async function listWebhooks({ database, secretKey }: Deps, user: User, unitId: number): Promise<Webhook[]> {
  await managedUnit(database.db, user, unitId);
  const rows = await database.db.select().from(endpoints).where(eq(endpoints.unitId, unitId)).orderBy(endpoints.id);
  return rows.map((row) => present(row, secretKey));
}

export async function getWebhook({ database, secretKey }: Deps, user: User, unitId: number, webhookId: number) {
  return present(await managedEndpoint(database, user, unitId, webhookId), secretKey);
}

export async function createWebhook(
  { database, secretKey }: Deps,
  user: User,
  unitId: number,
  body: WebhookCreate,
  now: Date,
) {
  await managedUnit(database.db, user, unitId);
  const row = await database.transaction(function* (tx) {
    return yield* run(
      tx
        .insert(endpoints)
        .values({
          unitId,
          ...body,
          secretEncrypted: encryptSecret(secretKey, newWebhookSecret()),
          createdAt: now.toISOString(),
        })
        .returning()
        .get(),
    );
  });
  return present(row, secretKey);
}

/**
 * Changes an endpoint. Switched on again, its failing streak is forgotten and what it had pending is due at once;
 * switched off, it receives nothing (its pending deliveries wait).
 */
export async function updateWebhook(
  { database, secretKey }: Deps,
  user: User,
  unitId: number,
  webhookId: number,
  body: WebhookUpdate,
  now: Date,
) {
  const current = await managedEndpoint(database, user, unitId, webhookId);
  const { url, description, events, enabled } = body;
  const switchedOn = enabled === true && !current.enabled;
  const row = await database.transaction(function* (tx) {
    const updated = yield* run(
      tx
        .update(endpoints)
        .set({
          ...(url === undefined ? {} : { url }),
          ...(description === undefined ? {} : { description }),
          ...(events === undefined ? {} : { events }),
          ...(enabled === undefined ? {} : { enabled }),
          ...(switchedOn ? { failingSince: null, disabledAt: null } : {}),
          updatedAt: now.toISOString(),
        })
        .where(eq(endpoints.id, current.id))
        .returning()
        .get(),
    );
    if (switchedOn)
      yield* run(
        tx
          .update(deliveries)
          .set({ nextAttemptAt: now.toISOString(), claimedBy: null })
          .where(and(eq(deliveries.endpointId, current.id), eq(deliveries.status, "pending")))
          .run(),
      );
    return updated;
  });
  if (!row) throw notFound();
  return present(row, secretKey);
}

/** A new secret for the endpoint: the deliveries from now on are signed with it (the old one no longer works). */
export async function rollWebhookSecret(
  { database, secretKey }: Deps,
  user: User,
  unitId: number,
  webhookId: number,
  now: Date,
) {
  const current = await managedEndpoint(database, user, unitId, webhookId);
  const row = await database.transaction(function* (tx) {
    return yield* run(
      tx
        .update(endpoints)
        .set({ secretEncrypted: encryptSecret(secretKey, newWebhookSecret()), updatedAt: now.toISOString() })
        .where(eq(endpoints.id, current.id))
        .returning()
        .get(),
    );
  });
  if (!row) throw notFound();
  return present(row, secretKey);
}

/** Removes an endpoint with its deliveries and their log; answers it as it was. */
export async function deleteWebhook({ database, secretKey }: Deps, user: User, unitId: number, webhookId: number) {
  const current = await managedEndpoint(database, user, unitId, webhookId);
  await database.transaction(function* (tx) {
    yield* run(tx.delete(endpoints).where(eq(endpoints.id, current.id)).run());
  });
  return present(current, secretKey);
}

/** The delivery log of an endpoint, newest first, each with its attempts (newest first). */
export async function listDeliveries(
  database: Database,
  user: User,
  unitId: number,
  webhookId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: WebhookDelivery[]; total: number }> {
  const endpoint = await managedEndpoint(database, user, unitId, webhookId);
  const where = eq(deliveries.endpointId, endpoint.id);
  const [rows, total] = await Promise.all([
    database.db
      .select()
      .from(deliveries)
      .where(where)
      .orderBy(desc(deliveries.id))
      .limit(page.limit)
      .offset(page.offset),
    database.db.$count(deliveries, where),
  ]);
  const log = rows.length
    ? await database.db
        .select()
        .from(attempts)
        .where(
          inArray(
            attempts.deliveryId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(desc(attempts.id))
    : [];
  return {
    rows: rows.map((row) => ({
      id: row.id,
      webhookId: row.endpointId,
      messageId: row.messageId,
      eventType: row.eventType,
      status: row.status,
      attempts: row.attempts,
      lastStatusCode: row.lastStatusCode,
      // A claim's lease is not an attempt the owner should expect.
      nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
      deliveredAt: row.deliveredAt,
      createdAt: row.createdAt,
      payload: row.payload,
      attemptLog: log
        .filter((attempt) => attempt.deliveryId === row.id)
        .map(({ id, attemptedAt, statusCode, error, durationMs }) => ({
          id,
          attemptedAt,
          statusCode,
          error,
          durationMs,
        })),
    })),
    total,
  };
}

/** A switched-off endpoint receives nothing, a test or a delivery sent again neither (409). */
function assertEnabled(endpoint: EndpointRow) {
  if (!endpoint.enabled) throw conflict("errors.webhook_disabled");
}

/**
 * "Send again": a new delivery of the same event (the same `Webhook-Id` and body) due now, whatever became of the
 * first; a receiver that remembers ids takes it once.
 */
export async function resendDelivery(
  database: Database,
  user: User,
  unitId: number,
  webhookId: number,
  deliveryId: number,
  now: Date,
) {
  const endpoint = await managedEndpoint(database, user, unitId, webhookId);
  assertEnabled(endpoint);
  const created = await database.transaction(function* (tx) {
    const original = yield* run(
      tx
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.id, deliveryId), eq(deliveries.endpointId, endpoint.id)))
        .get(),
    );
    if (!original) throw notFound();
    return yield* run(
      tx
        .insert(deliveries)
        .values({
          endpointId: endpoint.id,
          messageId: original.messageId,
          eventType: original.eventType,
          payload: original.payload,
          nextAttemptAt: now.toISOString(),
          createdAt: now.toISOString(),
        })
        .returning()
        .get(),
    );
  });
  return { id: created.id, messageId: created.messageId };
}

/** A test delivery (`ping`) to the endpoint, due now: the receiver's check of its signature can be tried. */
export async function pingWebhook(database: Database, user: User, unitId: number, webhookId: number, now: Date) {
  const endpoint = await managedEndpoint(database, user, unitId, webhookId);
  assertEnabled(endpoint);
  const payload = JSON.stringify({ type: "ping", timestamp: now.toISOString(), data: { webhook_id: endpoint.id } });
  const created = await database.transaction(function* (tx) {
    return yield* run(
      tx
        .insert(deliveries)
        .values({
          endpointId: endpoint.id,
          messageId: newMessageId(),
          eventType: "ping",
          payload,
          nextAttemptAt: now.toISOString(),
          createdAt: now.toISOString(),
        })
        .returning()
        .get(),
    );
  });
  return { id: created.id, messageId: created.messageId };
}
