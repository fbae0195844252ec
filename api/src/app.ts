// createApp(): middleware, error handler and route mounting (docs/style.md layout).

import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_NESTING, NestingTooDeep } from "@ticketing/shared/case";
import { languageFromHeader, type Translate } from "@ticketing/shared/i18n/translate";
import { SiteConfig } from "@ticketing/shared/schemas/common";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import { API_BASE, type AppDeps, type AppEnv } from "./context.ts";
import { AfterAnswer } from "./lib/after-answer.ts";
import { clientAddress, trustedProxies } from "./lib/client-address.ts";
import { DomainError, type Message } from "./lib/errors.ts";
import { answer, zodToDomainError } from "./lib/http.ts";
import { apiTranslator } from "./lib/i18n.ts";
import { log, logRequests } from "./lib/log.ts";
import { openApiDocument } from "./lib/openapi.ts";
import { RateLimiter, TooManyRequests } from "./lib/rate-limit.ts";
import { route } from "./lib/route.ts";
import {
  allowedOrigins,
  allowOrigins,
  limitBody,
  MAX_BODY_MEGABYTES,
  securityHeadersOnNodeAnswer,
} from "./lib/security.ts";
import { apiTokenRoutes } from "./routes/api-tokens.ts";
import { authRoutes } from "./routes/auth.ts";
import { catalogueRoutes } from "./routes/catalogue.ts";
import { checkInRoutes } from "./routes/check-ins.ts";
import { docsRoutes, openApiRoute } from "./routes/docs.ts";
import { eventCancellationRoutes } from "./routes/event-cancellation.ts";
import { eventSalesRoutes } from "./routes/event-sales.ts";
import { eventRoutes } from "./routes/events.ts";
import { exportRoutes } from "./routes/exports.ts";
import { frontendRoutes } from "./routes/frontend.ts";
import { frontendLoginRoutes } from "./routes/frontend-logins.ts";
import { orderLinkRoutes } from "./routes/frontend-orders.ts";
import { frontendWaitingListRoutes } from "./routes/frontend-waiting-list.ts";
import { healthRoutes } from "./routes/health.ts";
import { membershipRoutes } from "./routes/memberships.ts";
import { nodeRoutes } from "./routes/nodes.ts";
import { paymentRoutes } from "./routes/payments.ts";
import { personalDataRoutes } from "./routes/personal-data.ts";
import { priceRuleRoutes } from "./routes/price-rules.ts";
import { refundRoutes } from "./routes/refunds.ts";
import { registrationModuleRoutes } from "./routes/registration-modules.ts";
import { basketRoutes, invoiceRoutes } from "./routes/sales.ts";
import { ticketRoutes } from "./routes/tickets.ts";
import { unitRoutes } from "./routes/units.ts";
import { uploadedImageRoutes } from "./routes/uploaded-images.ts";
import { userRoutes } from "./routes/users.ts";
import { waitingListRoutes } from "./routes/waiting-list.ts";
import { waitingRoomRoutes } from "./routes/waiting-room.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { authenticateApiToken, isApiToken } from "./services/accounts/api-tokens.ts";
import { authenticate } from "./services/accounts/sessions.ts";
import type { Lifecycle } from "./services/operations/health.ts";

export { API_BASE };

const API_INFO = { title: "Ticketing API", version: "1" };

/**
 * `lifecycle`: the process's phase for the health answer (server.ts); always ready without one. `afterAnswer`: the
 * process's (product.ts, whose shutdown waits for it), else one of this app's own.
 */
export function createApp(given: Omit<AppDeps, "afterAnswer"> & { afterAnswer?: AfterAnswer }, lifecycle?: Lifecycle) {
  const deps: AppDeps = {
    ...given,
    afterAnswer:
      given.afterAnswer ??
      new AfterAnswer((error) => (given.logger ?? log).error({ err: error }, "work after an answer failed")),
  };
  const api = new Hono<AppEnv>();
  const rateLimiter = new RateLimiter(deps.database, deps.config.rateLimitMultiplier);

  // Logging first: the request line covers every answer, a refused preflight and a 413 included.
  const logger = deps.logger ?? log;
  api.use("*", logRequests(logger));
  // Headers first, so that every answer carries them, a refused preflight and a 413 included (docs/decisions/0007).
  api.use("*", securityHeadersOnNodeAnswer(deps.config.publicUrl, "api"));
  // Only the configured origins' pages may read the API's answers; the API authenticates by bearer token, so no
  // credentials (cookies) are allowed across origins.
  const origins = allowedOrigins(deps.config);
  const isTrustedProxy = trustedProxies(deps.config.trustedProxies);
  api.use("*", allowOrigins(origins, ["Content-Range"]));
  api.use("*", async (c, next) => {
    const language = languageFromHeader(c.req.header("accept-language"));
    // Services log through deps: during a request, with its id. Work left for after the answer starts once the
    // Node answer is out (the page's, for the storefront's in-process calls).
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    c.set("deps", {
      ...deps,
      logger: c.get("logger"),
      afterAnswer: deps.afterAnswer.forAnswer(outgoing),
    });
    c.set("language", language);
    c.set("t", apiTranslator(language));
    c.set("rateLimiter", rateLimiter);
    // The visitor's connection: its own for an API request, the page's for the storefront's in-process calls.
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const remote = incoming?.socket?.remoteAddress;
    const forwardedFor = [incoming?.headers?.["x-forwarded-for"] ?? []].flat().join(",");
    c.set(
      "clientIp",
      remote ? clientAddress(remote, forwardedFor, isTrustedProxy) : (c.req.header("x-real-ip") ?? "local"),
    );
    const header = c.req.header("authorization");
    const token = header?.startsWith("Bearer ") ? header.slice(7).trim() : null;
    // A token issued before its user's last password reset or change counts as none.
    // A unit's API token (`tkt_…`) is looked up by its hash instead (services/accounts/api-tokens.ts).
    if (token && isApiToken(token))
      c.set("auth", await authenticateApiToken(deps.database, token, deps.now?.() ?? new Date()));
    else c.set("auth", token ? await authenticate(deps.database, deps.config.secretKey, token) : null);
    await next();
  });

  // One limit for JSON and form bodies, answered in the caller's language before a body is read past it; an
  // image upload has its own, larger one (routes/uploaded-images.ts).
  const limit = limitBody(() => {
    throw new DomainError("too_large", ["errors.body_too_large"], undefined, { size: MAX_BODY_MEGABYTES });
  });
  api.use("*", (c, next) => (c.req.path === `${API_BASE}/uploaded-images` ? next() : limit(c, next)));

  api.route("/auth", authRoutes);
  api.route("/units", unitRoutes);
  api.route("/units/:id/api-tokens", apiTokenRoutes);
  api.route("/units/:id/webhooks", webhookRoutes);
  api.route("/memberships", membershipRoutes);
  api.route("/users", userRoutes);
  api.get(
    "/config",
    route({ summary: "The product's public settings", answer: SiteConfig }, (c) =>
      answer(c, { supportEmail: deps.config.supportEmail }),
    ),
  );
  api.route("/events", eventRoutes);
  api.route("/events/:id", eventSalesRoutes);
  api.route("/events/:id/check-ins", checkInRoutes);
  api.route("/events/:id/waiting-room", waitingRoomRoutes);
  api.route("/events/:id/waiting-list", waitingListRoutes);
  api.route("/events/:id/cancellation", eventCancellationRoutes);
  api.route("/nodes", nodeRoutes);
  api.route("/node-price-rules", priceRuleRoutes);
  for (const [prefix, routes] of catalogueRoutes) api.route(prefix, routes);
  api.route("/registration-modules", registrationModuleRoutes);
  api.route("/uploaded-images", uploadedImageRoutes);
  api.route("/baskets", basketRoutes);
  api.route("/baskets", refundRoutes);
  api.route("/invoices", invoiceRoutes);
  api.route("/exports", exportRoutes);
  api.route("/personal-data", personalDataRoutes);
  api.route("/frontend/orders", orderLinkRoutes);
  api.route("/frontend/waiting-list", frontendWaitingListRoutes);
  api.route("/frontend", frontendRoutes);
  api.route("/frontend-logins", frontendLoginRoutes);
  api.route("/payments", paymentRoutes);
  api.route("/tickets", ticketRoutes);
  api.route("/health", healthRoutes(lifecycle));
  let document: object | undefined;
  api.get(
    "/openapi.json",
    openApiRoute(() => (document ??= openApiDocument(app, API_BASE, API_INFO))),
  );
  api.route("/docs", docsRoutes);

  // Mounted with app.route, the API's own notFound is never asked (an unknown path answered a text/plain 404): a
  // catch-all after every route answers an unknown path, or a method a path does not take, as JSON in the
  // caller's language.
  api.all("*", (c) => c.json({ errors: [c.get("t")("errors.not_found")] }, 404));
  api.onError((error, c) => {
    const t = c.get("t") ?? apiTranslator("en");
    const domain = domainErrorOf(error);
    if (domain) {
      const say = (message: Message) => render(t, message, domain.values);
      const body: Record<string, unknown> = { errors: domain.messages.map(say) };
      if (domain.fieldErrors)
        body.field_errors = Object.fromEntries(
          Object.entries(domain.fieldErrors).map(([field, message]) => [field, say(message)]),
        );
      if (domain instanceof TooManyRequests) c.header("Retry-After", String(domain.retryAfterSeconds));
      return c.json(body, domain.status);
    }
    const constraint = sqliteConstraint(error, c.req.method);
    if (constraint) return c.json({ errors: [t(constraint.message)] }, constraint.status);
    if (error instanceof HTTPException)
      return c.json({ errors: [error.message || t("errors.request_refused")] }, error.status);
    c.var.logger.error({ err: error }, "request failed");
    return c.json({ errors: [t("errors.internal")] }, 500);
  });

  const app = new Hono();
  app.route(API_BASE, api);
  return app;
}

export type App = ReturnType<typeof createApp>;

function domainErrorOf(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (error instanceof z.ZodError) return zodToDomainError(error);
  if (error instanceof NestingTooDeep)
    return new DomainError("invalid", ["errors.nested_too_deep"], undefined, { max: MAX_NESTING });
  return null;
}

/** A message in the caller's language; a field's message (`validation.in_field`) holds the key of its own. */
function render(t: Translate, message: Message, shared?: Record<string, string | number>): string {
  if (typeof message === "string") return t(message, shared);
  const values = { ...shared, ...message.values };
  if (typeof values.message === "string") values.message = t(values.message, values);
  return t(message.key, values);
}

/**
 * A constraint the database enforced (stock CHECK, unique index, foreign key) after the services' own checks
 * let a request through, e.g. under a race: a clear 409/400, never a 500.
 */
function sqliteConstraint(error: unknown, method: string): { status: 400 | 409; message: string } | null {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    const text = `${typeof code === "string" ? code : ""} ${current.message}`;
    if (!text.includes("SQLITE_CONSTRAINT") && !/constraint failed/i.test(text)) continue;
    if (/FOREIGN KEY/i.test(text))
      return method === "DELETE"
        ? { status: 409, message: "errors.still_used" }
        : { status: 400, message: "errors.reference_missing" };
    if (/UNIQUE/i.test(text)) return { status: 409, message: "errors.already_exists" };
    return { status: 409, message: "errors.constraint" };
  }
  return null;
}
