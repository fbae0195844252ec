// A ticket's signed code checked in the browser (docs/decisions/0048-offline-check-in.md), as the API checks it
// (api/src/services/tickets/ticket-codes.ts): `base64url(payload).base64url(Ed25519 signature)`, the payload the
// JSON `{e, b, i}` (event, basket, article line), verified with the instance's public key (SPKI PEM, `GET
// /tickets/public-key`) through WebCrypto. A door that lost the network tells a genuine ticket from a forged one.

/** What a genuine code names. */
export interface CodeClaims {
  eventId: number;
  basketId: number;
  itemId: number;
}

/** The key of a SPKI PEM, for `verifyCode`; throws when the text is not an Ed25519 public key. */
export async function importTicketKey(pem: string): Promise<CryptoKey> {
  const body = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, "").replace(/\s+/g, "");
  const der = Uint8Array.from(atob(body), (char) => char.charCodeAt(0));
  return crypto.subtle.importKey("spki", der, { name: "Ed25519" }, false, ["verify"]);
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The bytes of base64url text in its one canonical spelling, else null: as on the server, two spellings of the same
 * bytes (unused low bits of the last character set) are not both accepted.
 */
export function decodeCanonical(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  let binary: string;
  try {
    binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  } catch {
    return null;
  }
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return encodeBase64url(bytes) === text ? bytes : null;
}

const encodeBase64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The claims of a genuine code; null for anything else (altered, truncated, forged, another key). Never throws. */
export async function verifyCode(key: CryptoKey, code: string): Promise<CodeClaims | null> {
  try {
    const parts = code.split(".");
    if (parts.length !== 2) return null;
    const payload = decodeCanonical(parts[0] ?? "");
    const signature = decodeCanonical(parts[1] ?? "");
    if (!payload || !signature) return null;
    if (!(await crypto.subtle.verify({ name: "Ed25519" }, key, signature, payload))) return null;
    const claims: unknown = JSON.parse(new TextDecoder().decode(payload));
    if (typeof claims !== "object" || claims === null) return null;
    const { e, b, i } = claims as Record<string, unknown>;
    if (!isId(e) || !isId(b) || !isId(i)) return null;
    return { eventId: e, basketId: b, itemId: i };
  } catch {
    return null;
  }
}
