// `npm start`: one process, one port, everything a newcomer needs.
//
// Its life (docs/decisions/0022): the port answers from the first moment — the health answer says `starting` and
// every other request is refused with a 503 — while the product migrates and seeds; then it serves. On SIGTERM or
// SIGINT it drains: no new connection, the requests in flight answered, the mail being sent sent, then the
// database closed and exit 0. A second signal, or a drain longer than SHUTDOWN_LIMIT_MS, exits at once (1).
import cluster from "node:cluster";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { serve } from "@hono/node-server";
import closeWithGrace from "close-with-grace";
import { API_BASE } from "./app.ts";
import { loadConfigOrExit } from "./env.ts";
import { turnTaker } from "./lib/turns.ts";
import { createProduct, type Product } from "./product.ts";
import { startingAnswers } from "./routes/health.ts";
import { Lifecycle } from "./services/health.ts";
import { banner, WORKER_READY } from "./started.ts";

/** Longer than any request or mail should take; a load balancer stops sending requests well before. */
const SHUTDOWN_LIMIT_MS = 10_000;

const config = loadConfigOrExit();

const lifecycle = new Lifecycle();
let product: Product | undefined;
/** The answers being made: draining tells those not begun yet to close their connection. */
const openResponses = new Set<ServerResponse>();
const whileStarting = startingAnswers(lifecycle, API_BASE);
// Requests take turns with new connections: a busy server still lets newcomers in (lib/turns.ts).
const takeTurn = turnTaker();
const fetch = (request: Request, env: unknown) =>
  takeTurn().then(() => (product ? product.app.fetch(request, env) : whileStarting(request)));
const server = serve({ fetch, port: config.port }) as Server;
server.on("request", closeWhenAnswered);

closeWithGrace({ delay: SHUTDOWN_LIMIT_MS }, async ({ signal, err }) => {
  if (err) console.error(err);
  console.info(`\n  ${signal ?? "Stopping"}: finishing the requests in flight, then closing the database…`);
  lifecycle.phase = "draining";
  await drain(server);
  await (product ?? (await starting.catch(() => undefined)))?.stop();
});

const starting = createProduct(config, { lifecycle });
product = await starting;
if (lifecycle.phase === "starting") {
  lifecycle.phase = "ready";
  // A worker of WORKERS=n (cluster.ts) tells its primary, which prints the banner once for all.
  if (cluster.isWorker) process.send?.(WORKER_READY);
  else console.log(banner(config, product.seeded));
}

/** Stops accepting connections and resolves once every connection has closed, its last answer sent. */
function drain(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Answers not begun yet say `Connection: close`: their client does not send another request on it.
    for (const response of openResponses) if (!response.headersSent) response.shouldKeepAlive = false;
    // Idle keep-alive connections would otherwise hold the close open until their timeout; busy ones are closed
    // as their answer goes out (`closeWhenAnswered`).
    server.closeIdleConnections();
  });
}

/**
 * While draining, a connection closes once its answer is out: a request that arrives on a kept-alive connection
 * is answered with `Connection: close`, and a connection whose answer has just finished is closed as idle.
 */
function closeWhenAnswered(_request: IncomingMessage, response: ServerResponse) {
  if (lifecycle.phase === "draining") response.shouldKeepAlive = false;
  openResponses.add(response);
  response.once("close", () => {
    openResponses.delete(response);
    if (lifecycle.phase === "draining") setImmediate(() => server.closeIdleConnections());
  });
}
