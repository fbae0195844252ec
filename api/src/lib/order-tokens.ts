// The order link's token (services/order-links.ts): the basket and an expiry, signed with the product's secret key
// (HMAC-SHA256). It cannot be forged for another basket nor stretched, and needs no row to look up or revoke.
import { ticketOfficeUrl } from "@ticketing/shared/ticket-office";
import { hmacHex, hmacMatches } from "./tokens.ts";

/**
 * How long after the event's end its order links keep working: long enough for a late invoice question or a
 * refund, short enough that an old mailbox does not open orders for ever.
 */
export const ORDER_LINK_DAYS_AFTER_EVENT = 90;

const TOKEN = /^(\d+)\.(\d+)\.([0-9a-f]{64})$/;
const signed = (basketId: number, expiresAt: number) => `order-link:${basketId}:${expiresAt}`;

/** The basket's token, valid until `expiresAt` (seconds since the epoch). */
export const orderToken = (secret: string, basketId: number, expiresAt: number) =>
  `${basketId}.${expiresAt}.${hmacHex(secret, signed(basketId, expiresAt))}`;

/** The basket a token names, when its signature holds and it has not expired; null otherwise. */
export function basketIdOfOrderToken(secret: string, token: string, now: Date): number | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, basketId, expiresAt, signature] = match as unknown as [string, string, string, string];
  if (Number(expiresAt) * 1000 <= now.getTime()) return null;
  return hmacMatches(secret, signed(Number(basketId), Number(expiresAt)), signature) ? Number(basketId) : null;
}

/** The order page's address for the basket: its event's ticket office, the preview one for a testing basket. */
export function orderLinkUrl(
  config: { publicUrl: string; secretKey: string },
  event: { frontendPath: string; endDate: string },
  basket: { id: number; testing: boolean },
) {
  const expiresAt = Math.floor(Date.parse(event.endDate) / 1000) + ORDER_LINK_DAYS_AFTER_EVENT * 86_400;
  const token = orderToken(config.secretKey, basket.id, expiresAt);
  return ticketOfficeUrl(config.publicUrl, event, basket.testing, `orders/${token}`);
}
