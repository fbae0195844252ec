import { sitePath } from "@ticketing/shared/site-path";

/**
 * A redirect target taken from a query or form is only followed when it is a path of this site, and then in
 * its normalised form; anything that could leave the site (`/..//evil.example`, `https://…`, `/\evil`,
 * `javascript:`) gives `fallback`.
 */
export const safeNextUrl = (value: unknown, fallback: string): string => sitePath(value) ?? fallback;

/** The path and query of a request, to come back to after logging in. */
export const currentPath = (request: Request) => {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  return `${url.pathname}${url.search}`;
};
