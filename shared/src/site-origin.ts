// Which origin a buyer's browser is on (docs/decisions/0030). The product answers on any host name it is reached
// by (127.0.0.1 as well as localhost, www. as well as the bare domain): what the buyer's browser follows during a
// visit must stay on that origin (the ticket office's session cookie lives there, and its Content-Security-Policy
// allows form answers to lead only there). The ticket office's form posts and the API's checkout both ask here.

/**
 * The origin of a browser's request when it is one of this site's, else null (none, `null`, another site's). This
 * site's are the request's own host, whatever the scheme (a proxy that ends TLS forwards `https://` pages over
 * plain http), and `PUBLIC_URL`'s origin (a proxy that rewrites `Host` to its upstream's name).
 */
export function siteOrigin(origin: string | null | undefined, requestUrl: string, publicUrl: string): string | null {
  if (!origin) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  // An `Origin` header is a serialised origin: anything more (a path, user info) is not a browser's.
  if (url.origin !== origin || (url.protocol !== "http:" && url.protocol !== "https:")) return null;
  if (url.origin === new URL(publicUrl).origin) return url.origin;
  return url.host === new URL(requestUrl).host ? url.origin : null;
}
