// Signed ticket codes (docs/design.md §4 "Tickets"): a scanner holding only the public key verifies a ticket offline.
// A code is `base64url(payload).base64url(Ed25519 signature)`, about 120 characters: a small QR code.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto";

export interface TicketKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SPKI PEM, to hand to scanning devices. */
  publicKeyPem: string;
}

/** What a ticket code proves: this article of this basket of this event was sold. */
export interface TicketCodeClaims {
  eventId: number;
  basketId: number;
  itemId: number;
}

/** Where the key was kept before it moved into the database: an install from before brings it along (env.ts). */
export const TICKET_KEY_FILE = "ticket-signing-key.pem";

/** A new Ed25519 private key, PKCS#8 PEM. */
export function newTicketSigningKey(): string {
  return generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

let lastKeys: { pem: string; keys: TicketKeys } | null = null;

/** The key pair of a private key in PEM (the configuration's ticketSigningKey); the last one is kept. */
export function ticketKeysOf(pem: string): TicketKeys {
  if (lastKeys?.pem === pem) return lastKeys.keys;
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  const keys = { privateKey, publicKey, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString() };
  lastKeys = { pem, keys };
  return keys;
}

export function createTicketCode(keys: TicketKeys, claims: TicketCodeClaims): string {
  const payload = Buffer.from(JSON.stringify({ e: claims.eventId, b: claims.basketId, i: claims.itemId }));
  const signature = sign(null, payload, keys.privateKey);
  return `${payload.toString("base64url")}.${signature.toString("base64url")}`;
}

/** The claims of a genuine code; null for anything else (tampered, truncated, garbage, other key). Never throws. */
export function verifyTicketCode(keys: Pick<TicketKeys, "publicKey">, code: string): TicketCodeClaims | null {
  try {
    const parts = code.split(".");
    if (parts.length !== 2) return null;
    const payload = decodeCanonical(parts[0] ?? "");
    const signature = decodeCanonical(parts[1] ?? "");
    if (!payload || !signature || !verify(null, payload, keys.publicKey, signature)) return null;
    const claims: unknown = JSON.parse(payload.toString("utf8"));
    if (typeof claims !== "object" || claims === null) return null;
    const { e, b, i } = claims as Record<string, unknown>;
    if (!isId(e) || !isId(b) || !isId(i)) return null;
    return { eventId: e, basketId: b, itemId: i };
  } catch {
    return null;
  }
}

/**
 * Node's base64url decoder ignores stray characters and the unused low bits of the last one, so two
 * different strings can decode to the same bytes; only the canonical spelling of the bytes is accepted.
 */
function decodeCanonical(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : null;
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
