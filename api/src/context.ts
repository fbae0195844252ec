import type { Database } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import type { Translate } from "@ticketing/shared/i18n/translate";
import { siteOrigin } from "@ticketing/shared/site-origin";
import type { Config } from "./env.ts";
import type { AfterAnswer } from "./lib/after-answer.ts";
import type { Logger } from "./lib/log.ts";
import type { RateLimiter } from "./lib/rate-limit.ts";
import type { Authenticated } from "./services/accounts/access.ts";
import type { TicketKeys } from "./services/tickets/ticket-codes.ts";

/** Where the API is served (createApp): `/api/v1/events`. */
export const API_BASE = "/api/v1";

/** What every route can use: built once by createApp. */
export interface AppDeps {
  database: Database;
  config: Config;
  ticketKeys: TicketKeys;
  /** Called after a transaction queued mail, so the worker delivers it without waiting for its next tick. */
  onMailQueued?: () => void;
  /** Called after a transaction queued webhook deliveries (docs/decisions/0045-webhooks.md) that queued no mail. */
  onWebhookQueued?: () => void;
  /** Work left for after the answer (lib/after-answer.ts): what only some answers would otherwise wait for. */
  afterAnswer: AfterAnswer;
  /** Clock, injectable for tests. */
  now?: () => Date;
  /** Where to log: the process's logger (lib/log.ts) by default; during a request, one that adds its id (app.ts). */
  logger?: Logger;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    auth: Authenticated | null;
    language: Language;
    t: Translate;
    rateLimiter: RateLimiter;
    /**
     * The client's address: the socket's (through TRUSTED_PROXIES' X-Forwarded-For, lib/client-address.ts), or
     * `x-real-ip` when there is no socket (tests).
     */
    clientIp: string;
  };
}

export type Ctx = import("hono").Context<AppEnv>;

/** The time of the request: the injected clock's, or the machine's. The one `now` of the routes. */
export const now = (c: Ctx): Date => c.get("deps").now?.() ?? new Date();

/**
 * The origin the caller's browser is on, for the addresses it follows during this visit (a payment page, the
 * provider's way back): its `Origin` when that is one of this site's, else PUBLIC_URL's (docs/decisions/0030). The
 * ticket office's in-process calls carry its visitor's (product.ts).
 */
export const visitOrigin = (c: Ctx): string =>
  siteOrigin(c.req.header("origin"), c.req.url, c.get("deps").config.publicUrl) ?? c.get("deps").config.publicUrl;
