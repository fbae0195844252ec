// Webhooks (docs/decisions/0045-webhooks.md): a unit's endpoints, the events they subscribe to, and the log of
// their deliveries.
import { z } from "zod";
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from "../constants.ts";
import { Id, IsoDate } from "./common.ts";

export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES, { error: "errors.webhook_event_invalid" });

/** Hosts an endpoint may be reached at over plain http: this machine only. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Where an endpoint may be: https on any named host or address, http only on this machine (a receiver under
 * development), no credentials in it, no fragment. Anything else is refused with a message, never fetched.
 */
export function webhookUrlProblem(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return "errors.webhook_url_invalid";
  }
  if (url.username || url.password) return "errors.webhook_url_credentials";
  if (url.protocol === "https:") return url.hostname ? null : "errors.webhook_url_invalid";
  if (url.protocol === "http:") return LOOPBACK_HOSTS.has(url.hostname) ? null : "errors.webhook_url_http_local_only";
  return "errors.webhook_url_invalid";
}

const WebhookUrl = z
  .string()
  .trim()
  .max(2000, { error: "errors.webhook_url_too_long" })
  .superRefine((address, context) => {
    const problem = webhookUrlProblem(address);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

const Events = z
  .array(WebhookEventType)
  .min(1, { error: "errors.webhook_events_empty" })
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)));

export const WebhookCreate = z.strictObject({
  url: WebhookUrl,
  description: z.string().trim().max(200).default(""),
  events: Events,
  enabled: z.boolean().default(true),
});
export type WebhookCreate = z.output<typeof WebhookCreate>;

/** Any field changes; the admin's read-only fields are accepted and ignored. */
export const WebhookUpdate = z.strictObject({
  url: WebhookUrl.optional(),
  description: z.string().trim().max(200).optional(),
  events: Events.optional(),
  /** Switched on again after it was switched off (by its owner, or after days of failures). */
  enabled: z.boolean().optional(),
  id: z.unknown().optional(),
  unitId: z.unknown().optional(),
  secret: z.unknown().optional(),
  failingSince: z.unknown().optional(),
  disabledAt: z.unknown().optional(),
  createdAt: z.unknown().optional(),
  updatedAt: z.unknown().optional(),
});
export type WebhookUpdate = z.output<typeof WebhookUpdate>;

/** An endpoint, as its unit's owners see it: its secret too (they give it to the receiver). */
export const Webhook = z.object({
  id: Id,
  unitId: Id,
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventType),
  /** `whsec_…`: the key of its signatures. */
  secret: z.string(),
  enabled: z.boolean(),
  /** When the first failure of the current streak was (null: the last attempt went through, or none failed). */
  failingSince: IsoDate.nullable(),
  /** When it was switched off after failing for days (null: on, or switched off by hand). */
  disabledAt: IsoDate.nullable(),
  createdAt: IsoDate,
  updatedAt: IsoDate.nullable(),
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookAttempt = z.object({
  id: Id,
  attemptedAt: IsoDate,
  /** The receiver's HTTP status; null when no answer came (`error` says why). */
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

/** One delivery of an event to an endpoint: its log line, with its attempts (newest first). */
export const WebhookDelivery = z.object({
  id: Id,
  webhookId: Id,
  /** The event's id, the `Webhook-Id` header: the same on every attempt and on a "send again". */
  messageId: z.string(),
  eventType: z.union([WebhookEventType, z.literal("ping")]),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  nextAttemptAt: IsoDate.nullable(),
  deliveredAt: IsoDate.nullable(),
  createdAt: IsoDate,
  /** The JSON body sent. */
  payload: z.string(),
  attemptLog: z.array(WebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
