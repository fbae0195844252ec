// What the product sends and accepts against the web's usual attacks (docs/decisions/0007): security headers
// with a Content-Security-Policy per surface, the origins whose pages may call the API, and one body limit.
import { randomFillSync } from "node:crypto";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { directAnswer, isInProcessCall } from "./direct-answer.ts";

/** Every request body but an image upload's (routes/uploaded-images.ts keeps its own, larger limit): JSON and forms. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * - `api`: JSON and files; a route answering HTML (the demo payment page) sets its own policy, which is kept.
 * - `storefront`: server-rendered pages whose one inline script (and Turbo's progress-bar style) carry the
 *   request's nonce.
 * - `storefront-token`: the same for the login links, whose path holds a token: no referrer at all.
 * - `admin`: the Vite build loads its scripts from files; emotion's `<style>` tags carry the request's nonce.
 */
export type Surface = "api" | "storefront" | "storefront-token" | "admin";

const NONE = "'none'";
const SELF = "'self'";
/** Nobody frames, re-bases or plugs into a page of the product. */
const EVERY_PAGE = { frameAncestors: [NONE], baseUri: [NONE], objectSrc: [NONE] };

/**
 * Where the ticket office's payment form may lead: its answer redirects to the provider's hosted page, and
 * browsers hold a form's redirects to `form-action` too. Stripe Checkout's origin, and the stand-in's that
 * replaces Stripe in tests (STRIPE_API_URL).
 */
const STRIPE_CHECKOUT = "https://checkout.stripe.com";

const policies = (publicOrigin: string, paymentPages: string[]) => ({
  api: { defaultSrc: [NONE], formAction: [NONE], ...EVERY_PAGE },
  storefront: {
    defaultSrc: [SELF],
    scriptSrc: [SELF, NONCE],
    styleSrc: [SELF, NONCE],
    // `data:` for the `<link rel="icon" href="data:,">` that spares browsers a favicon request.
    imgSrc: [SELF, "data:"],
    // The product's answers lead to the page's own origin (docs/decisions/0030); PUBLIC_URL's is where they lead
    // when the browser did not say where it is (a post without `Origin`).
    formAction: [SELF, publicOrigin, STRIPE_CHECKOUT, ...paymentPages],
    ...EVERY_PAGE,
  },
  admin: {
    defaultSrc: [SELF],
    scriptSrc: [SELF],
    styleSrc: [SELF, NONCE],
    // The communication pages' previews: a mail's HTML (inline style attributes, as mails are written) in a
    // sandboxed srcdoc frame, which inherits this policy, and the PDF ticket in a frame from a blob.
    styleSrcAttr: ["'unsafe-inline'"],
    frameSrc: [SELF, "blob:"],
    imgSrc: [SELF, "data:"],
    formAction: [SELF],
    ...EVERY_PAGE,
  },
});

/**
 * The headers of one surface; HSTS only when the product is served over https (PUBLIC_URL). `paymentPages`: the
 * origins of payment pages besides Stripe's (the stand-in's in tests).
 */
export function securityHeaders(publicUrl: string, surface: Surface, paymentPages: string[] = []): MiddlewareHandler {
  const site = new URL(publicUrl);
  const isHttps = site.protocol === "https:";
  return secureHeaders({
    contentSecurityPolicy: policies(site.origin, paymentPages)[surface === "storefront-token" ? "storefront" : surface],
    xFrameOptions: "DENY",
    // The API's URLs (the payment page's signature) and the back office's (reset and verification links) carry
    // secrets, and neither needs to tell anyone where a visitor came from.
    referrerPolicy: surface === "storefront" ? "strict-origin-when-cross-origin" : "no-referrer",
    strictTransportSecurity: isHttps ? "max-age=31536000" : false,
    overwrite: surface !== "api",
  });
}

/** Random bytes for the pages' nonces, 16 a nonce, drawn from the system's generator 256 nonces at a time. */
const noncePool = Buffer.alloc(16 * 256);
let noncePoolUsed = noncePool.length;

/** 16 random bytes in base64, as hono's `secureHeaders` makes a nonce; none is ever given twice. */
function newNonce(): string {
  if (noncePoolUsed === noncePool.length) {
    randomFillSync(noncePool);
    noncePoolUsed = 0;
  }
  noncePoolUsed += 16;
  return noncePool.toString("base64", noncePoolUsed - 16, noncePoolUsed);
}

/**
 * A surface's headers (`securityHeaders`), as hono's `secureHeaders` writes them, read once from an answer it made;
 * then set on each direct request's Node answer before the handler runs (lib/direct-answer.ts), the pages' policy
 * with a nonce of the request's own, kept where `cspNonce` reads it. Per answer, that spares building the policy,
 * setting each header on the web answer and @hono/node-server turning them back into Node's. A header a route sets
 * itself wins, as `overwrite: false` has it on the API (the demo payment page's policy). A test's `app.request` gets
 * them from `secureHeaders` itself; the ticket office's in-process API calls, none.
 */
export function securityHeadersOnNodeAnswer(
  publicUrl: string,
  surface: Surface,
  paymentPages: string[] = [],
): MiddlewareHandler {
  const onResponse = securityHeaders(publicUrl, surface, paymentPages);
  // The policy split where hono put its nonce, if it has one: each request's goes there.
  let headers: { fixed: [string, string][]; policy: string[] } | undefined;
  const reading = Promise.resolve(
    new Hono()
      .use(onResponse)
      .get("/", (c) => c.text(cspNonce(c) ?? ""))
      .request("/"),
  ).then(async (answer) => {
    const nonce = await answer.text();
    const policy = answer.headers.get("content-security-policy") ?? "";
    const fixed = [...answer.headers].filter(([name]) => name !== "content-security-policy" && name !== "content-type");
    headers = { fixed, policy: nonce ? policy.split(`'nonce-${nonce}'`) : [policy] };
    return headers;
  });
  return async (c, next) => {
    if (isInProcessCall(c)) return next();
    const outgoing = directAnswer(c);
    if (!outgoing) return onResponse(c, next);
    const { fixed, policy } = headers ?? (await reading);
    for (const [name, value] of fixed) outgoing.setHeader(name, value);
    if (policy.length > 1) {
      const nonce = newNonce();
      c.set("secureHeadersNonce", nonce);
      outgoing.setHeader("Content-Security-Policy", policy.join(`'nonce-${nonce}'`));
    } else outgoing.setHeader("Content-Security-Policy", policy[0] ?? "");
    return next();
  };
}

/** The nonce of this request's Content-Security-Policy (set by `securityHeaders` before the handler runs). */
export const cspNonce = (c: Context): string | undefined => c.get("secureHeadersNonce");

/** The origins whose pages may call the API with CORS: the product's own and CORS_ORIGINS. */
export function allowedOrigins(config: { publicUrl: string; corsOrigins: string[] }): Set<string> {
  return new Set([new URL(config.publicUrl).origin, ...config.corsOrigins]);
}

/**
 * Lets only `origins`' pages read the API's answers (CORS), without credentials: the API authenticates by bearer
 * token. A preflight is hono's `cors`; any other request gets its headers once answered, on the answer itself.
 * hono's `cors` sets them on `c.res` before the handler runs and appends `Vary` with `c.header` after it: either
 * makes @hono/node-server turn the handler's answer into a web Response and write it out as a stream, which cost
 * an add to a basket about a tenth of its CPU.
 */
export function allowOrigins(origins: Set<string>, exposeHeaders: string[]): MiddlewareHandler {
  const preflight = cors({ origin: (origin) => (origins.has(origin) ? origin : null), exposeHeaders });
  const exposed = exposeHeaders.join(",");
  return async (c, next) => {
    if (c.req.method === "OPTIONS") return preflight(c, next);
    if (isInProcessCall(c)) return next();
    const origin = c.req.header("origin");
    // Set before the handler on a direct request's Node answer, as the security headers are.
    const outgoing = directAnswer(c);
    if (outgoing) {
      if (origin && origins.has(origin)) outgoing.setHeader("Access-Control-Allow-Origin", origin);
      outgoing.setHeader("Access-Control-Expose-Headers", exposed);
      outgoing.setHeader("Vary", "Origin");
      return next();
    }
    await next();
    const headers = c.res.headers;
    if (origin && origins.has(origin)) headers.set("Access-Control-Allow-Origin", origin);
    headers.set("Access-Control-Expose-Headers", exposed);
    headers.append("Vary", "Origin");
  };
}

/**
 * Refuses a body over MAX_BODY_BYTES as soon as it is known: from Content-Length, or while a chunked body is
 * read (nothing beyond the limit is read or kept).
 */
export const limitBody = (onTooLarge: (c: Context) => Response | Promise<Response>): MiddlewareHandler => {
  const whileRead = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: onTooLarge });
  return (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    // Decided from the headers when they say the length, as hono's bodyLimit does, but without asking for the body
    // first: that makes @hono/node-server build a web Request and stream around the Node request, a seventh of an
    // add to a basket's CPU, where the body is otherwise read straight from the Node request.
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined)
      return Number.parseInt(length || "0", 10) > MAX_BODY_BYTES ? Promise.resolve(onTooLarge(c)) : next();
    return whileRead(c, next);
  };
};

/** The size a body may have, in the unit the messages quote (MB / Mo). */
export const MAX_BODY_MEGABYTES = MAX_BODY_BYTES / (1024 * 1024);
