// Device cookies (docs/decisions/0033, OWASP's "Slow Down Online Guessing Attacks with Device Cookies"): a browser
// that signed in to an account gets a cookie naming it, and its wrong passwords for that account are counted
// apart from everyone else's. The ticket office signs staff in to previews through the API: it hands these
// cookies, and only these, from the browser to the API and back.

/** Every device cookie's name starts with it (one cookie per account, `lib/device-cookies.ts` of the API). */
export const DEVICE_COOKIE_PREFIX = "device_";

const isDeviceCookie = (cookie: string) => cookie.startsWith(DEVICE_COOKIE_PREFIX);

/** A request's `Cookie` header reduced to its device cookies, or null when it has none. */
export function deviceCookiesOf(cookieHeader: string | null): string | null {
  const kept = (cookieHeader ?? "")
    .split(";")
    .map((pair) => pair.trim())
    .filter(isDeviceCookie);
  return kept.length > 0 ? kept.join("; ") : null;
}

/** The device cookies an answer sets, among its `Set-Cookie` headers. */
export const deviceSetCookies = (setCookies: string[]): string[] => setCookies.filter(isDeviceCookie);
