// Signing a webhook delivery and checking its signature (docs/decisions/0045-webhooks.md), the Standard Webhooks
// scheme (https://www.standardwebhooks.com): the sender signs "<id>.<timestamp>.<body>" with HMAC-SHA256 and the
// endpoint's secret, and sends `Webhook-Id`, `Webhook-Timestamp` (unix seconds) and `Webhook-Signature`
// (`v1,<base64>`, several separated by spaces while a secret is rolled). A receiver recomputes the signature, compares
// in constant time, refuses a timestamp too far from its clock (a replay), and remembers the ids it has handled (a
// replay within the tolerance, and the sender's own retries, come again with the same id). The README's receiver
// snippet (README.md, "Webhooks") is this same check in plain Node; webhook-signature.test.ts holds the two together.
import { createHmac, timingSafeEqual } from "node:crypto";
import { WEBHOOK_TOLERANCE_SECONDS } from "./constants.ts";

/** An endpoint's secret: `whsec_` and the base64 of its random bytes (the bytes are the HMAC key). */
export const WEBHOOK_SECRET_PREFIX = "whsec_";

/** The HMAC key of a secret: the bytes its base64 part stands for. */
function keyOf(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret,
    "base64",
  );
}

/** The `Webhook-Signature` value of a delivery: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const digest = createHmac("sha256", keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${digest}`;
}

export interface WebhookHeaders {
  /** `Webhook-Id`. */
  id: string;
  /** `Webhook-Timestamp`, as received (unix seconds). */
  timestamp: string;
  /** `Webhook-Signature`: one or more `v1,<base64>` separated by spaces. */
  signature: string;
}

export type WebhookVerdict =
  | { ok: true }
  | { ok: false; reason: "missing_headers" | "bad_timestamp" | "too_old" | "too_new" | "bad_signature" };

/**
 * The documented check of a delivery: the timestamp within `toleranceSeconds` of `now` (else a replay, or a clock
 * far off), and one of the `v1,` signatures equal, in constant time, to the one `secret` gives the id, timestamp and
 * body exactly as received. It does not remember ids: a receiver must also refuse an id it has already handled.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string,
  now: Date,
  toleranceSeconds: number = WEBHOOK_TOLERANCE_SECONDS,
): WebhookVerdict {
  if (!headers.id || !headers.timestamp || !headers.signature) return { ok: false, reason: "missing_headers" };
  if (!/^\d{1,12}$/.test(headers.timestamp)) return { ok: false, reason: "bad_timestamp" };
  const timestamp = Number(headers.timestamp);
  const current = Math.floor(now.getTime() / 1000);
  if (timestamp < current - toleranceSeconds) return { ok: false, reason: "too_old" };
  if (timestamp > current + toleranceSeconds) return { ok: false, reason: "too_new" };
  const expected = Buffer.from(signWebhook(secret, headers.id, timestamp, body).slice("v1,".length), "base64");
  for (const candidate of headers.signature.split(" ")) {
    const [version, value] = candidate.split(",", 2);
    if (version !== "v1" || !value) continue;
    const given = Buffer.from(value, "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: "bad_signature" };
}
