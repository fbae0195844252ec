// What a server says once it serves (its product ready, not just its port open): to a person, the banner (where
// each part is, how to sign in), printed once by the one process or by WORKERS=n's primary (cluster.ts); to that
// primary, a worker's ready message.
import type { Config } from "./env.ts";
import { DEMO_MODERATOR, DEMO_ORGANISER } from "./seed.ts";

/** The message a worker sends its primary (cluster.ts) once it serves. */
export const WORKER_READY = "ticketing:ready";

export function banner(
  config: Pick<Config, "publicUrl" | "databaseUrl" | "dataDir" | "smtpUrl">,
  seeded: boolean,
  workers = 1,
): string {
  const url = config.publicUrl;
  return [
    "",
    `  Ticketing is running (database: ${config.databaseUrl}${seeded ? ", demo data seeded" : ""}${workers > 1 ? `, ${workers} workers` : ""})`,
    "",
    `  Ticket office   ${url}/            demo event: ${url}/tickets/demo`,
    `  Back office     ${url}/admin`,
    `  API             ${url}/api/v1`,
    "",
    `  Demo login      ${DEMO_ORGANISER.email} / ${DEMO_ORGANISER.password}`,
    `  Moderator       ${DEMO_MODERATOR.email} / ${DEMO_MODERATOR.password}`,
    `  Mails           written to ${config.dataDir}/mail/*.eml${config.smtpUrl ? " and sent by SMTP" : ""}`,
    "",
  ].join("\n");
}
