const ORIGIN = "http://storefront.invalid";

/**
 * A redirect target taken from a query or form is only followed when it is a path of this site:
 * anything that could leave it (`//evil.example`, `https://…`, `/\evil`, `javascript:`) gives `fallback`.
 */
export function safeNextUrl(value: unknown, fallback: string): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return fallback;
  try {
    const url = new URL(value, ORIGIN);
    return url.origin === ORIGIN ? `${url.pathname}${url.search}${url.hash}` : fallback;
  } catch {
    return fallback;
  }
}

/** The path and query of a request, to come back to after logging in. */
export const currentPath = (request: Request) => {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  return `${url.pathname}${url.search}`;
};
