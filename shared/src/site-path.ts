// Redirect targets taken from a query, a form or an API body (`nextUrl`, `redirectTo`, `next_url`): one check
// for the API and the storefront, so that neither can be talked into sending a visitor to another site.

const ORIGIN = "http://site.invalid";

/**
 * The path of this site that `value` leads to, normalised (dot segments resolved, non-ASCII percent-encoded),
 * or `null` when following it could leave the site. The check is made on the *resolved* path: `/..//evil`,
 * `/%2e%2e//evil` and `/.//evil` all resolve to `//evil`, which a browser reads as the host `evil`. Callers
 * redirect to the returned path, never to `value` itself.
 */
export function sitePath(value: unknown): string | null {
  if (typeof value !== "string" || !value.startsWith("/")) return null;
  // URL parsing drops tabs and newlines (hiding a `//`), and browsers read `\` as `/`: refused before parsing.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== ORIGIN) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") ? null : path;
}
