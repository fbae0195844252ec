// Webhooks (docs/decisions/0045-webhooks.md): a unit's endpoints, and the outbox of their deliveries, written in the
// transaction of the change it tells about and delivered (retried, logged) by a worker.
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from "@ticketing/shared/constants";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bool, createdAt, id } from "./columns.ts";
import { units } from "./users-units.ts";

/** Where a unit's owners want to hear about its events. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: id(),
    unitId: integer("unit_id")
      .notNull()
      .references(() => units.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** The event types it subscribes to: a JSON array (read by the outbox's INSERT … SELECT with json_each). */
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    /**
     * `whsec_…`, the key of its signatures, shown to the unit's owners: encrypted at rest with the product's secret
     * (api/src/lib/secrets.ts), as a unit's Stripe keys are.
     */
    secretEncrypted: text("secret_encrypted").notNull(),
    enabled: bool("enabled").notNull().default(true),
    /** The first failed attempt since the last delivered one: 3 days of it switch the endpoint off. */
    failingSince: text("failing_since"),
    /** When it was switched off for failing (null when on, or off by hand). */
    disabledAt: text("disabled_at"),
    createdAt: createdAt(),
    updatedAt: text("updated_at"),
  },
  (t) => [index("webhook_endpoints_unit").on(t.unitId, t.enabled)],
);

/**
 * One event to deliver to one endpoint: the outbox row, its body fixed when written (the signature covers it as
 * sent). Claimed by a worker as a lease (`next_attempt_at` naming `claimed_by`), like the mail outbox's.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** `Webhook-Id`: the event's id, the same on every attempt and on a "send again". */
    messageId: text("message_id").notNull(),
    eventType: text("event_type", { enum: [...WEBHOOK_EVENT_TYPES, "ping"] }).notNull(),
    /** The JSON body, exactly as sent and signed. */
    payload: text("payload").notNull(),
    /** What makes a second write of the same change write nothing (a payment's resolution: `order.paid:<basket>`). */
    dedupeKey: text("dedupe_key"),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    nextAttemptAt: text("next_attempt_at"),
    claimedBy: text("claimed_by"),
    deliveredAt: text("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint").on(t.endpointId, t.id),
    uniqueIndex("webhook_deliveries_dedupe").on(t.endpointId, t.dedupeKey),
  ],
);

/** Every attempt of a delivery: when, what the receiver answered (or why none came), how long it took. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: id(),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: text("attempted_at").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [index("webhook_attempts_delivery").on(t.deliveryId, t.id)],
);
