// A ticket's signed code checked in the browser (docs/decisions/0048-offline-check-in.md), as the API checks it
// (api/src/services/tickets/ticket-codes.ts): `base64url(payload).base64url(Ed25519 signature)`, the payload the
// JSON `{e, b, i}` (event, basket, article line), verified with the instance's public key (SPKI PEM, `GET
// /tickets/public-key`) through WebCrypto. A door that lost the network tells a genuine ticket from a forged one.
// The code's format is shared with the API (shared/src/ticket-code.ts); only the verification is the browser's.
import { claimsOfPayload, type TicketCodeClaims, ticketCodeParts } from "@ticketing/shared/ticket-code";

/** The key of a SPKI PEM, for `verifyCode`; throws when the text is not an Ed25519 public key. */
export async function importTicketKey(pem: string): Promise<CryptoKey> {
  const body = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, "").replace(/\s+/g, "");
  const der = Uint8Array.from(atob(body), (char) => char.charCodeAt(0));
  return crypto.subtle.importKey("spki", der, { name: "Ed25519" }, false, ["verify"]);
}

/** The claims of a genuine code; null for anything else (altered, truncated, forged, another key). Never throws. */
export async function verifyCode(key: CryptoKey, code: string): Promise<TicketCodeClaims | null> {
  try {
    const parts = ticketCodeParts(code);
    if (!parts || !(await crypto.subtle.verify({ name: "Ed25519" }, key, parts.signature, parts.payload))) return null;
    return claimsOfPayload(parts.payload);
  } catch {
    return null;
  }
}
