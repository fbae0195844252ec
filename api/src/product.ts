// The whole product on one port (docs/design.md §2): API at /api/v1, back office at /admin, storefront at /.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serveStatic } from "@hono/node-server/serve-static";
import { createDatabase, type Database } from "@ticketing/db";
import { languageFromHeader } from "@ticketing/shared/i18n/translate";
import { siteOrigin } from "@ticketing/shared/site-origin";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { html } from "hono/html";
import { API_BASE, createApp } from "./app.ts";
import { type Config, type EnvConfig, withStoredSecrets } from "./env.ts";
import { AfterAnswer } from "./lib/after-answer.ts";
import { apiTranslator } from "./lib/i18n.ts";
import { type Logger, log, logRequests } from "./lib/log.ts";
import {
  cspNonce,
  limitBody,
  MAX_BODY_MEGABYTES,
  securityHeaders,
  securityHeadersOnNodeAnswer,
} from "./lib/security.ts";
import { isSeeded, seedDemo } from "./seed.ts";
import { releaseExpiredHolds } from "./services/baskets/baskets.ts";
import { expireUnpaidPayments } from "./services/checkout/expired-payments.ts";
import { payBackLatePayments } from "./services/checkout/payments/late-refunds.ts";
import { runCancellations } from "./services/events/cancellation-worker.ts";
import { moveUploadsIntoDatabase } from "./services/events/uploaded-images.ts";
import { type MailWorker, startMailWorker } from "./services/mail/delivery.ts";
import type { Lifecycle } from "./services/operations/health.ts";
import { ticketKeysOf } from "./services/tickets/ticket-codes.ts";
import { startWebhookWorker, type WebhookWorker } from "./services/webhooks/delivery.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const ADMIN_DIST = join(root, "admin/dist");
export const STOREFRONT_BUILD = join(root, "storefront/build");

export interface Product {
  app: Hono;
  /** The configuration with its secrets (the environment's, or the database's). */
  config: Config;
  database: Database;
  mailWorker: MailWorker;
  webhookWorker: WebhookWorker;
  /** The work requests left for after their answers (lib/after-answer.ts). */
  afterAnswer: AfterAnswer;
  seeded: boolean;
  stop(): Promise<void>;
}

/**
 * The configured database, migrated, with the demo data when it is empty (unless `seed` is false). `WORKERS=n`'s
 * primary (cluster.ts) runs it once before forking, so that its workers find it done instead of racing on it.
 */
export async function prepareDatabase(
  config: EnvConfig,
  options: { seed?: boolean; onStatement?: (sql: string) => void; lifecycle?: Lifecycle } = {},
): Promise<{ database: Database; seeded: boolean }> {
  const database = createDatabase({
    url: config.databaseUrl,
    driver: config.dbDriver,
    authToken: config.databaseAuthToken,
    onStatement: options.onStatement,
  });
  // The health answer reads the database from now on, while migrating and seeding too.
  if (options.lifecycle) options.lifecycle.database = database;
  await database.migrate();
  await moveUploadsIntoDatabase(database, config.dataDir);
  const seeded = options.seed !== false && !(await isSeeded(database));
  if (seeded) await seedDemo(database);
  return { database, seeded };
}

/** Migrates (and seeds an empty database), then composes the three parts. */
export async function createProduct(
  settings: EnvConfig,
  options: {
    seed?: boolean;
    mailIntervalMs?: number;
    webhookIntervalMs?: number;
    onStatement?: (sql: string) => void;
    lifecycle?: Lifecycle;
    /** The process's logger (lib/log.ts) unless a test gives its own. */
    logger?: Logger;
  } = {},
): Promise<Product> {
  const { database, seeded } = await prepareDatabase(settings, options);
  const config = await withStoredSecrets(settings, database);

  const logger = options.logger ?? log;
  // Background work logs with what it is about: no request is behind it.
  const mailLog = logger.child({ task: "mail" });
  const sweepLog = logger.child({ task: "sweep" });
  const mailWorker = startMailWorker(database, config, {
    intervalMs: options.mailIntervalMs ?? 5_000,
    logger: mailLog,
  });
  const flushOnlyMail = () =>
    void mailWorker.flush().catch((error: unknown) => mailLog.error({ err: error }, "delivering mail failed"));
  // Webhooks (docs/decisions/0045-webhooks.md): beside the mail worker, woken after a transaction that queued
  // deliveries. Most changes that queue them queue a mail too: a mail's wake-up wakes both.
  const webhookWorker = startWebhookWorker(database, {
    intervalMs: options.webhookIntervalMs ?? 5_000,
    logger: logger.child({ task: "webhooks" }),
    secretKey: config.secretKey,
    onMailQueued: flushOnlyMail,
  });
  const flushMail = () => {
    flushOnlyMail();
    webhookWorker.wake();
  };
  // What requests leave for after their answers (lib/after-answer.ts): the shutdown waits for it.
  const afterAnswer = new AfterAnswer((error) => logger.error({ err: error }, "work after an answer failed"));
  const api = createApp(
    {
      database,
      config,
      ticketKeys: ticketKeysOf(config.ticketSigningKey),
      onMailQueued: flushMail,
      onWebhookQueued: webhookWorker.wake,
      afterAnswer,
      logger,
    },
    options.lifecycle,
  );
  // The refunds of cancelled events (docs/decisions/0047): carried on now where a stopped (or killed) process left
  // them, and at each sweep; a cancellation or a retry starts them at once (routes/event-cancellation.ts).
  const cancellationLog = logger.child({ task: "cancellation" });
  let cancellations: Promise<unknown> = Promise.resolve();
  const refundCancelledEvents = () => {
    cancellations = runCancellations({ database, config, onMailQueued: flushMail, logger: cancellationLog }).catch(
      (error: unknown) => cancellationLog.error({ err: error }, "refunding cancelled events failed"),
    );
  };
  refundCancelledEvents();
  // Expired holds give their stock back (docs/design.md §4 "Basket lifecycle").
  // Unpaid online payments past the event's payment term are cancelled the same way, and their buyers told.
  const sweep = setInterval(() => {
    releaseExpiredHolds(database, new Date()).catch((error: unknown) =>
      sweepLog.error({ err: error }, "releasing expired holds failed"),
    );
    expireUnpaidPayments(database, new Date())
      .then((expired) => {
        if (expired.length) flushMail();
      })
      .catch((error: unknown) => sweepLog.error({ err: error }, "expiring unpaid payments failed"));
    // Late payments whose refund the provider refused are paid back on a later round (docs/decisions/0010).
    payBackLatePayments({ database, config, onMailQueued: flushMail, logger: sweepLog }, new Date()).catch(
      (error: unknown) => sweepLog.error({ err: error }, "paying back late payments failed"),
    );
    refundCancelledEvents();
  }, 30_000).unref();

  const app = new Hono();
  // The API logs its own requests (app.ts); the pages and files get the same request line and id here.
  const logPages = logRequests(logger);
  app.use("*", (c, next) => (isApiPath(c.req.path) ? next() : logPages(c, next)));
  // A page or a file that throws (the API answers its own errors, app.ts): a plain 500, the error in the log.
  app.onError((error, c) => {
    c.var.logger.error({ err: error }, "request failed");
    return c.text("Internal Server Error", 500);
  });
  // Before anything answers, so that every answer carries its surface's headers, the "not built" 503s included.
  app.use("*", pageSecurityHeaders(config));
  app.use("*", (c, next) => (isApiPath(c.req.path) ? next() : pageBodyLimit(c, next)));
  app.route("/", api);
  app.get("/api", (c) => c.redirect(`${API_BASE}/`));
  mountAdmin(app);
  // The visitor's connection goes along with each in-process call: the API limits sign-in attempts per address,
  // and without it every visitor of the ticket office would count as one ("local").
  // The ticket office signs its session cookie with SESSION_SECRET, read when its build is imported (just below):
  // the product's secret unless the operator gave one, so that every process signs alike.
  process.env.SESSION_SECRET ??= config.secretKey;
  await mountStorefront(app, config.publicUrl, (env, page) => inProcessApiFetch(api, env, page));

  return {
    app,
    config,
    database,
    mailWorker,
    webhookWorker,
    afterAnswer,
    seeded,
    async stop() {
      clearInterval(sweep);
      // Its mails are queued before the worker stops, its rows written before the database closes.
      await afterAnswer.settled();
      await cancellations;
      await webhookWorker.stop();
      await mailWorker.stop();
      await database.close();
    },
  };
}

const isApiPath = (path: string) => path === API_BASE || path.startsWith(`${API_BASE}/`);
/** The ticket office's login links: their path holds a token (docs/specification.md §2.3). */
const LOGIN_LINK = /^\/tickets\/(?:preview\/)?[^/]+\/login\/(?:verify|third-party)\//;

/** The back office's and the ticket office's headers (the API sends its own, app.ts; docs/decisions/0007). */
function pageSecurityHeaders({ publicUrl, stripeApi }: Pick<Config, "publicUrl" | "stripeApi">): MiddlewareHandler {
  const admin = securityHeaders(publicUrl, "admin");
  // The stand-in that replaces Stripe in tests serves its hosted page from its own address.
  const paymentPages = stripeApi ? [`${stripeApi.protocol}://${stripeApi.host}:${stripeApi.port}`] : [];
  // The pages' headers go on the Node answer before the page is made (lib/security.ts): cheaper per page.
  const storefront = securityHeadersOnNodeAnswer(publicUrl, "storefront", paymentPages);
  const loginLink = securityHeadersOnNodeAnswer(publicUrl, "storefront-token");
  return (c, next) => {
    const path = c.req.path;
    if (isApiPath(path)) return next();
    if (path === "/admin" || path.startsWith("/admin/")) return admin(c, next);
    return LOGIN_LINK.test(path) ? loginLink(c, next) : storefront(c, next);
  };
}

/** A post the pages refuse before reading it: a page saying why, in the visitor's language (Accept-Language). */
function messagePage(c: Context, status: 400 | 413, key: string, params?: Record<string, string | number>) {
  const language = languageFromHeader(c.req.header("accept-language"));
  const message = apiTranslator(language)(key, params);
  return c.html(
    html`<!doctype html>
<html lang="${language}"><head><meta charset="utf-8" /><title>${message}</title></head><body><p>${message}</p></body></html>`,
    status,
  );
}

/** The ticket office's forms are small: a larger post is refused before it is read, with a page saying why. */
const pageBodyLimit = limitBody((c) => messagePage(c, 413, "errors.body_too_large", { size: MAX_BODY_MEGABYTES }));

/**
 * Vite's hashed files (admin/dist/assets, storefront/build/client/assets): a new build gives new names, so browsers
 * keep each for good; sent as the .br or .gz copy the build wrote beside it (scripts/precompress.ts) when the
 * browser accepts it. `Vary` on every answer, the uncompressed ones too, so that a shared cache keeps them apart.
 */
function serveHashedAssets(root: string, rewriteRequestPath?: (path: string) => string): MiddlewareHandler {
  const serve = serveStatic({ root, rewriteRequestPath, precompressed: true });
  return async (c, next) => {
    // The file's response, or (no such file) what the next handler gave. Its headers, not serveStatic's `onFound`:
    // headers set on the context once the response is made do not reach it.
    const response = await serve(c, next);
    if (response instanceof Response) {
      response.headers.set("Cache-Control", "public, max-age=31536000, immutable");
      response.headers.set("Vary", "Accept-Encoding");
    }
    return response;
  };
}

/** The back office's single page, from `dist` (admin/dist unless a test gives another). */
export function mountAdmin(app: Hono, dist = ADMIN_DIST) {
  const index = join(dist, "index.html");
  if (!existsSync(index)) {
    app.get("/admin/*", (c) => c.text("The back office is not built: run `npm run build`.", 503));
    return;
  }
  // Read per request so a rebuild needs no restart; emotion (admin/src/main.tsx) gives its styles this nonce.
  // Never reused from a cache: it carries this request's nonce, and names the build's current assets.
  const page = (c: Context) => {
    c.header("Cache-Control", "no-cache");
    return c.html(
      readFileSync(index, "utf8").replace("<head>", `<head>\n    <meta name="csp-nonce" content="${cspNonce(c)}" />`),
    );
  };
  const underAdmin = (path: string) => path.replace(/^\/admin/, "");
  app.get("/admin", (c) => c.redirect("/admin/"));
  app.get("/admin/", page);
  app.get("/admin/index.html", page);
  app.use("/admin/assets/*", serveHashedAssets(dist, underAdmin));
  app.get("/admin/assets/*", (c) => c.text("Not found", 404));
  app.use("/admin/*", serveStatic({ root: dist, rewriteRequestPath: underAdmin }));
  // SPA fallback: react-admin routes are client-side.
  app.get("/admin/*", page);
}

type ApiFetch = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * The storefront's calls to the API, made in-process on behalf of the visitor whose request `env` carries. They go
 * through the API's whole stack (`fetch`, as `request` does) with a light request: see `lightRequest`. Made for the
 * page request `page`, they are addressed to its origin and carry its `Origin`, as the visitor's browser would
 * send them: the API addresses the payment pages it starts to the origin the visitor is on (docs/decisions/0030).
 */
export function inProcessApiFetch(api: { fetch: Hono["fetch"] }, env: unknown, page?: Request): ApiFetch {
  const base = `${page ? new URL(page.url).origin : "http://localhost"}${API_BASE}`;
  const origin = page?.headers.get("origin");
  return async (path, init = {}) => {
    if (origin) {
      const headers = new Headers(init.headers);
      headers.set("origin", origin);
      init = { ...init, headers };
    }
    return api.fetch(lightRequest(`${base}${path}`, init), env as never);
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The visitor's request as the ticket office reads it, or null for a post from another site's page (its `Origin`
 * is neither the request's host nor PUBLIC_URL's: shared/src/site-origin.ts). A post without `Origin` is no
 * browser's form. A post from one of this site's origins that is not the request's own (a proxy rewrote `Host` to
 * its upstream's name, or ended TLS) is addressed to the origin it came from: React Router refuses (400) a post
 * whose `Origin` is not its request's, and the in-process API calls tell the API where the visitor is.
 */
export function onVisitOrigin(request: Request, publicUrl: string): Request | null {
  const origin = request.headers.get("origin");
  if (origin === null || SAFE_METHODS.has(request.method)) return request;
  const visit = siteOrigin(origin, request.url, publicUrl);
  if (!visit) return null;
  const url = new URL(request.url);
  if (visit === url.origin) return request;
  return new Request(`${visit}${url.pathname}${url.search}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
}

const realRequest = Symbol("realRequest");
type LightRequest = Request & { [realRequest]?: Request };

/**
 * A request without a body (what pages ask) whose method, URL and headers are read as given; a real Request (its
 * abort signal and the rest: a few % of a page for the API calls it makes) is made only when something asks for
 * more. @hono/node-server does the same for the requests it receives. A request with a body is a real one: the API's
 * body limit makes a new Request of it.
 */
function lightRequest(url: string, init: RequestInit): Request {
  if (init.body != null) return new Request(url, init);
  const request = Object.create(LightRequestPrototype) as LightRequest;
  const headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
  Object.defineProperties(request, {
    url: { value: url },
    method: { value: (init.method ?? "GET").toUpperCase() },
    headers: { value: headers },
    body: { value: null },
    bodyUsed: { value: false },
  });
  Object.defineProperty(request, realRequest, {
    get: () => {
      const real = new Request(url, { ...init, headers });
      Object.defineProperty(request, realRequest, { value: real });
      return real;
    },
    configurable: true,
  });
  return request;
}

const LightRequestPrototype: object = Object.create(Request.prototype);
for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(Request.prototype))) {
  if (key === "constructor" || key === "url" || key === "method" || key === "headers") continue;
  Object.defineProperty(
    LightRequestPrototype,
    key,
    typeof descriptor.value === "function"
      ? {
          value(this: LightRequest, ...args: unknown[]) {
            const real = this[realRequest] as Request;
            return (real[key as keyof Request] as (...a: unknown[]) => unknown).apply(real, args);
          },
        }
      : {
          get(this: LightRequest) {
            return (this[realRequest] as Request)[key as keyof Request];
          },
        },
  );
}

async function mountStorefront(app: Hono, publicUrl: string, apiFetchFor: (env: unknown, page: Request) => ApiFetch) {
  const serverEntry = join(STOREFRONT_BUILD, "server/index.js");
  if (!existsSync(serverEntry)) {
    app.get("*", (c) => c.text("The ticket office is not built: run `npm run build`.", 503));
    return;
  }
  // react-router is a dependency of the storefront workspace: resolve it from there.
  const require = createRequire(join(root, "storefront/package.json"));
  const { createRequestHandler } = (await import(
    pathToFileURL(require.resolve("react-router")).href
  )) as typeof import("react-router");
  const build = await import(pathToFileURL(serverEntry).href);
  const handle = createRequestHandler(build, process.env.NODE_ENV === "development" ? "development" : "production");
  const client = join(STOREFRONT_BUILD, "client");
  app.use("/assets/*", serveHashedAssets(client));
  // Every file of the client build has an extension; a path without one is a page and skips the file-system
  // look-up (a stat per page otherwise). A page path with a dot is still looked up, misses and goes on.
  const serveClientFile = serveStatic({ root: client });
  app.use("*", (c, next) => (FILE_NAME.test(c.req.path) ? serveClientFile(c, next) : next()));
  // The storefront calls the API in-process (it is a backend-for-frontend, docs/design.md §2).
  // The nonce lets root.tsx's inline script (and Turbo's progress bar) run under the page's policy.
  app.all("*", (c) => {
    // Every post, to a page or to a resource route (which React Router does not check): docs/decisions/0030.
    const request = onVisitOrigin(c.req.raw, publicUrl);
    if (!request) return messagePage(c, 400, "errors.form_other_site");
    // The page's API calls carry its request id (lib/log.ts); its server-side errors go to its log lines.
    const context = {
      apiFetch: apiFetchFor({ ...(c.env as object), requestId: c.var.requestId }, request),
      cspNonce: cspNonce(c),
      reportError: (error: unknown) => c.var.logger.error({ err: error }, "page failed"),
    };
    // A download (a resource route) that fails answers the storefront's own error page, not the API's JSON: the
    // catch-all route renders it for the status it is given, in the visitor's language (their headers).
    const renderErrorPage = (status: number) =>
      handle(new Request(new URL(ERROR_PAGE_PATH, c.req.url), { headers: c.req.raw.headers }), {
        ...context,
        errorStatus: status,
      } as never);
    return handle(request, { ...context, renderErrorPage } as never);
  });
}

/** A path only the storefront's catch-all route matches. */
const ERROR_PAGE_PATH = "/.error-page";
/** A path whose last segment has an extension: maybe a file of the storefront's client build. */
const FILE_NAME = /\.[^/]+$/;
