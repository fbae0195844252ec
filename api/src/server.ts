// `npm start`: one process, one port, everything a newcomer needs.
import { serve } from "@hono/node-server";
import { loadConfig } from "./env.ts";
import { turnTaker } from "./lib/turns.ts";
import { createProduct } from "./product.ts";
import { DEMO_MODERATOR, DEMO_ORGANISER } from "./seed.ts";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
process.env.SESSION_SECRET ??= config.secretKey;

const product = await createProduct(config);
// Requests take turns with new connections: a busy server still lets newcomers in (lib/turns.ts).
const takeTurn = turnTaker();
const fetch: typeof product.app.fetch = (request, env) => takeTurn().then(() => product.app.fetch(request, env));
const server = serve({ fetch, port: config.port }, () => {
  const url = config.publicUrl;
  console.log(
    [
      "",
      `  Ticketing is running (database: ${config.databaseUrl}${product.seeded ? ", demo data seeded" : ""})`,
      "",
      `  Ticket office   ${url}/            demo event: ${url}/tickets/demo`,
      `  Back office     ${url}/admin`,
      `  API             ${url}/api/v1`,
      "",
      `  Demo login      ${DEMO_ORGANISER.email} / ${DEMO_ORGANISER.password}`,
      `  Moderator       ${DEMO_MODERATOR.email} / ${DEMO_MODERATOR.password}`,
      `  Mails           written to ${config.dataDir}/mail/*.eml${config.smtpUrl ? " and sent by SMTP" : ""}`,
      "",
    ].join("\n"),
  );
});

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    server.close();
    void product.stop().finally(() => process.exit(0));
  });
