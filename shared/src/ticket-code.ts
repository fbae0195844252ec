// A ticket's signed code (docs/design.md §4 "Tickets"): `base64url(payload).base64url(Ed25519 signature)`, the
// payload the JSON `{e, b, i}` (event, basket, article line). Read here once for the API, which signs and verifies
// with node:crypto (api/src/services/tickets/ticket-codes.ts), and for the door's offline check, which verifies with
// WebCrypto in the browser (admin/src/events/check-in/offlineCode.ts, docs/decisions/0048).

/** What a code proves: this article of this basket of this event was sold. */
export interface TicketCodeClaims {
  eventId: number;
  basketId: number;
  itemId: number;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

const encodeBase64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/**
 * The bytes of base64url text in its one canonical spelling, else null: decoders ignore the unused low bits of the
 * last character, so two spellings of the same bytes would otherwise both be accepted.
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

/** The payload a code signs for these claims. */
export const ticketCodePayload = (claims: TicketCodeClaims): Uint8Array<ArrayBuffer> =>
  new TextEncoder().encode(JSON.stringify({ e: claims.eventId, b: claims.basketId, i: claims.itemId }));

/** The code of a payload and its signature. */
export const ticketCodeOf = (payload: Uint8Array, signature: Uint8Array) =>
  `${encodeBase64url(payload)}.${encodeBase64url(signature)}`;

/** A code's payload and signature, each in its canonical spelling; null for anything else. */
export function ticketCodeParts(
  code: string,
): { payload: Uint8Array<ArrayBuffer>; signature: Uint8Array<ArrayBuffer> } | null {
  const parts = code.split(".");
  if (parts.length !== 2) return null;
  const payload = decodeCanonical(parts[0] ?? "");
  const signature = decodeCanonical(parts[1] ?? "");
  return payload && signature ? { payload, signature } : null;
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The claims a verified payload names; null when it is not the JSON `{e, b, i}` of three ids. Never throws. */
export function claimsOfPayload(payload: Uint8Array): TicketCodeClaims | null {
  try {
    const claims: unknown = JSON.parse(new TextDecoder().decode(payload));
    if (typeof claims !== "object" || claims === null) return null;
    const { e, b, i } = claims as Record<string, unknown>;
    if (!isId(e) || !isId(b) || !isId(i)) return null;
    return { eventId: e, basketId: b, itemId: i };
  } catch {
    return null;
  }
}
