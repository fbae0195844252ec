// Signed ticket codes (docs/design.md §4 "Tickets"): a scanner holding only the public key verifies a ticket offline.
// A code is `base64url(payload).base64url(Ed25519 signature)`, about 120 characters: a small QR code.

import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto";
import {
  claimsOfPayload,
  type TicketCodeClaims,
  ticketCodeOf,
  ticketCodeParts,
  ticketCodePayload,
} from "@ticketing/shared/ticket-code";

export type { TicketCodeClaims };

export interface TicketKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SPKI PEM, to hand to scanning devices. */
  publicKeyPem: string;
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
  const payload = ticketCodePayload(claims);
  return ticketCodeOf(payload, sign(null, payload, keys.privateKey));
}

/** The claims of a genuine code; null for anything else (tampered, truncated, garbage, other key). Never throws. */
export function verifyTicketCode(keys: Pick<TicketKeys, "publicKey">, code: string): TicketCodeClaims | null {
  try {
    const parts = ticketCodeParts(code);
    if (!parts || !verify(null, parts.payload, keys.publicKey, parts.signature)) return null;
    return claimsOfPayload(parts.payload);
  } catch {
    return null;
  }
}
