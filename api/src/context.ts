import type { Database } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import type { Translate } from "@ticketing/shared/i18n/translate";
import type { Config } from "./env.ts";
import type { AccessClaims } from "./lib/tokens.ts";
import type { TicketKeys } from "./services/ticket-codes.ts";

/** What every route can use: built once by createApp. */
export interface AppDeps {
  database: Database;
  config: Config;
  ticketKeys: TicketKeys;
  /** Called after a transaction queued mail, so the worker delivers it without waiting for its next tick. */
  onMailQueued?: () => void;
  /** Clock, injectable for tests. */
  now?: () => Date;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    auth: AccessClaims | null;
    language: Language;
    t: Translate;
  };
}

export type Ctx = import("hono").Context<AppEnv>;
