// Device cookies (docs/decisions/0033): a browser that signed in to an account, or followed its password-reset
// link, gets a cookie naming that account, signed with the product's secret. Its wrong passwords for the account
// are then counted for that cookie alone (lib/rate-limit.ts `loginAttempt`): whoever shares its address cannot
// lock it out. Nothing is stored: the cookie proves itself, for DEVICE_COOKIE_DAYS.
import { randomBytes } from "node:crypto";
import { DEVICE_COOKIE_PREFIX } from "@ticketing/shared/device-cookies";
import { PREVIEWS_PATH, TICKET_OFFICES_PATH } from "@ticketing/shared/ticket-office";
import { getCookie, setCookie } from "hono/cookie";
import { API_BASE, type Ctx } from "../context.ts";
import { hmacHex, hmacMatches } from "./tokens.ts";

/** How long a browser stays a known device of an account without signing in again. */
export const DEVICE_COOKIE_DAYS = 180;
const VERSION = "d1";
/** A cookie issued this far in the future still counts: the clocks of two replicas may differ by that much. */
const CLOCK_SKEW_SECONDS = 300;
/**
 * Where the browser sends it: the back office's sign-in (the API's own path) and the ticket office's preview
 * sign-in, whose action calls the API in-process with it. Nowhere else.
 */
export const DEVICE_COOKIE_PATHS = [`${API_BASE}/auth/login`, PREVIEWS_PATH];

/**
 * The ticket office's device (issue 30): one cookie per browser, for every event, under this account name. Guest
 * sign-ins are counted per device, and a waiting room gives one place per device (docs/decisions/0036, 0037).
 */
export const TICKET_OFFICE_DEVICE = "ticket-office";

/**
 * Where the browser sends the ticket office's device cookie: the ticket office's pages (whose actions sign guests
 * in and take waiting-room places on the visitor's behalf), and the two API calls that count it.
 */
export const TICKET_OFFICE_DEVICE_PATHS = [
  TICKET_OFFICES_PATH,
  `${API_BASE}/auth/anonymous-login`,
  `${API_BASE}/frontend/waiting-room`,
];

const pathsOf = (account: string) =>
  account === TICKET_OFFICE_DEVICE ? TICKET_OFFICE_DEVICE_PATHS : DEVICE_COOKIE_PATHS;

/**
 * One cookie per account, so that a browser shared by several staff keeps each one's. Its name is a keyed hash of
 * the account: a browser's cookie names do not list its accounts.
 */
export const deviceCookieName = (secret: string, account: string) =>
  `${DEVICE_COOKIE_PREFIX}${hmacHex(secret, `device-cookie-name:${account}`).slice(0, 20)}`;

const signed = (account: string, issued: string, nonce: string) => `device-cookie:${account}:${issued}:${nonce}`;

/** `d1.<issued, Unix seconds>.<nonce>.<HMAC of the account, issued and nonce>`. */
export function newDeviceCookie(secret: string, account: string, now: Date): string {
  const issued = String(Math.floor(now.getTime() / 1000));
  const nonce = randomBytes(16).toString("base64url");
  return [VERSION, issued, nonce, hmacHex(secret, signed(account, issued, nonce))].join(".");
}

/**
 * The device a cookie value proves for `account`: its nonce, which its attempts are counted under. Null for
 * anything else — no cookie, a forged or altered one, another account's, one past DEVICE_COOKIE_DAYS.
 */
export function deviceOf(secret: string, account: string, value: string | undefined, now: Date): string | null {
  const [version, issued = "", nonce = "", signature = "", ...rest] = (value ?? "").split(".");
  if (version !== VERSION || rest.length > 0 || !/^\d{1,12}$/.test(issued) || !/^[\w-]{22}$/.test(nonce)) return null;
  const age = now.getTime() / 1000 - Number(issued);
  if (age < -CLOCK_SKEW_SECONDS || age > DEVICE_COOKIE_DAYS * 86_400) return null;
  return hmacMatches(secret, signed(account, issued, nonce), signature) ? nonce : null;
}

/** The device the request's cookie proves for `account` (a normalised email), or null: an untrusted client. */
export function presentedDevice(c: Ctx, account: string, now: Date): string | null {
  const secret = c.get("deps").config.secretKey;
  return deviceOf(secret, account, getCookie(c, deviceCookieName(secret, account)), now);
}

/**
 * Gives the browser a new device cookie for `account` on each of DEVICE_COOKIE_PATHS (TICKET_OFFICE_DEVICE_PATHS for
 * the ticket office's device), and answers its device (the nonce its attempts are counted under): script cannot read it
 * (httpOnly), another site's request does not carry it (SameSite=Strict), and on an https site only https does.
 */
export function giveDeviceCookie(c: Ctx, account: string, now: Date) {
  const { secretKey, publicUrl } = c.get("deps").config;
  const value = newDeviceCookie(secretKey, account, now);
  for (const path of pathsOf(account))
    setCookie(c, deviceCookieName(secretKey, account), value, {
      path,
      httpOnly: true,
      sameSite: "Strict",
      secure: publicUrl.startsWith("https:"),
      maxAge: DEVICE_COOKIE_DAYS * 86_400,
    });
  return deviceOf(secretKey, account, value, now) as string;
}
