// `GET /health`: the answer a load balancer polls, without credentials (docs/decisions/0022).
import { snakifyKeys } from "@ticketing/shared/case";
import { languageFromHeader } from "@ticketing/shared/i18n/translate";
import { Hono } from "hono";
import type { AppEnv } from "../context.ts";
import { answer } from "../lib/http.ts";
import { apiTranslator } from "../lib/i18n.ts";
import { route } from "../lib/route.ts";
import { checkHealth, Health, healthHttpStatus, type Lifecycle } from "../services/operations/health.ts";

/** Health in the phase `lifecycle` says (server.ts); an app without one (tests, tools) is always ready. */
export function healthRoutes(lifecycle?: Lifecycle) {
  return new Hono<AppEnv>().get(
    "/",
    route(
      {
        summary: "Whether this process may take requests: 200 when it does, 503 while starting, draining or failing",
        description:
          "Public, states and counts only. `failing`: the database does not answer or lacks migrations of this " +
          "build. The mail counts are reported without failing the check: the site works while mail waits.",
        auth: "none",
        answer: Health,
      },
      async (c) => {
        const health = await checkHealth(c.get("deps").database, lifecycle?.phase ?? "ready");
        // Never kept by a cache between the balancer and us: each poll must reach the process.
        c.header("Cache-Control", "no-store");
        return answer(c, health, healthHttpStatus(health));
      },
    ),
  );
}

/** How long a client refused while the process starts is told to wait. */
const STARTING_RETRY_SECONDS = 5;

/**
 * What the port answers before the product is composed (server.ts): the health answer says `starting` (with the
 * database as far as it is opened and migrated), and every other request is refused with a 503 and Retry-After,
 * in the caller's language: JSON under the API, a line of text for a page.
 */
export function startingAnswers(lifecycle: Lifecycle, apiBase: string) {
  return async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname === `${apiBase}/health` && request.method === "GET") {
      const health = await checkHealth(lifecycle.database, "starting");
      return Response.json(snakifyKeys(health), {
        status: healthHttpStatus(health),
        headers: { "Cache-Control": "no-store" },
      });
    }
    const message = apiTranslator(languageFromHeader(request.headers.get("accept-language")))("errors.starting");
    const headers = { "Retry-After": String(STARTING_RETRY_SECONDS), "Cache-Control": "no-store" };
    return pathname === apiBase || pathname.startsWith(`${apiBase}/`)
      ? Response.json({ errors: [message] }, { status: 503, headers })
      : new Response(message, { status: 503, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
  };
}
