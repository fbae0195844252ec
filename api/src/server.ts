// `npm start`: one process, one port, everything a newcomer needs.
//
// Its life (docs/decisions/0022): the port answers from the first moment — the health answer says `starting` and
// every other request is refused with a 503 — while the product migrates and seeds; then it serves. On SIGTERM or
// SIGINT it drains: no new connection, the requests in flight answered, the mail being sent sent, then the
// database closed and exit 0. A second signal exits at once (1); so does a drain whose answers have stopped moving,
// or that has reached SHUTDOWN_LIMIT_SECONDS (lib/shutdown.ts, docs/decisions/0035).
import cluster from "node:cluster";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { type Http2Bindings, type HttpBindings, serve } from "@hono/node-server";
import closeWithGrace from "close-with-grace";
import { API_BASE } from "./app.ts";
import { loadConfigOrExit } from "./env.ts";
import { drainDeadline, SHUTDOWN_IDLE_MS } from "./lib/shutdown.ts";
import { turnTaker } from "./lib/turns.ts";
import { settleUnreadBody } from "./lib/unread-bodies.ts";
import { createProduct, type Product } from "./product.ts";
import { startingAnswers } from "./routes/health.ts";
import { Lifecycle } from "./services/operations/health.ts";
import { banner, WORKER_READY } from "./started.ts";

const config = loadConfigOrExit();
/** How long an idle kept-alive connection stays open. */
const KEEP_ALIVE_MS = 65_000;

const lifecycle = new Lifecycle();
let product: Product | undefined;
/** The answers being made: draining tells those not begun yet to close their connection. */
const openResponses = new Set<ServerResponse>();
/** Answers finished since the start: with the bytes of the open ones, how a drain sees its answers move. */
let answersFinished = 0;
const whileStarting = startingAnswers(lifecycle, API_BASE);
// Requests take turns with new connections: a busy server still lets newcomers in (lib/turns.ts).
const takeTurn = turnTaker();
const fetch = async (request: Request, env: HttpBindings | Http2Bindings) => {
  await takeTurn();
  const answer = await (product ? product.app.fetch(request, env) : whileStarting(request));
  // A body the answer did not read keeps the connection usable, or the answer says close (lib/unread-bodies.ts).
  // The server is node:http's (serve's default), HTTP/1.1: its bindings are never HTTP/2's.
  const { incoming, outgoing } = env as HttpBindings;
  settleUnreadBody(incoming, outgoing);
  return answer;
};
// Not @hono/node-server's own clean-up of unread bodies: it cannot read past the body's paused web stream, and it
// cuts a kept-alive connection whose rest takes more than 500 ms (docs/decisions/0035).
const server = serve({ fetch, port: config.port, autoCleanupIncoming: false }) as Server;
// An idle kept-alive connection stays open longer than the clients and proxies that reuse one (60 s for most load
// balancers): with node's 5 s, a client sending on a connection just as the server closed it met a reset.
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.on("request", closeWhenAnswered);

// No fixed delay: the drain's own deadline decides when to stop waiting (lib/shutdown.ts).
closeWithGrace({ delay: false }, async ({ signal, err }) => {
  if (err) console.error(err);
  console.info(`\n  ${signal ?? "Stopping"}: finishing the requests in flight, then closing the database…`);
  // The health answer says draining from now on: a load balancer stops sending here.
  lifecycle.phase = "draining";
  const deadline = drainDeadline(bytesMoved, { limitMs: config.shutdownLimitMs });
  const stopped = (async () => {
    await drain(server);
    await (product ?? (await starting.catch(() => undefined)))?.stop();
  })();
  const gaveUp = await Promise.race([stopped.then(() => null), deadline.reached]);
  deadline.stop();
  // Thrown, it is logged and the process exits 1 (close-with-grace).
  if (gaveUp === "idle")
    throw new Error(
      `Stopped with ${openResponses.size} answer(s) unfinished: none moved for ${SHUTDOWN_IDLE_MS / 1000} s.`,
    );
  if (gaveUp === "limit")
    throw new Error(
      `Stopped with ${openResponses.size} answer(s) unfinished at SHUTDOWN_LIMIT_SECONDS (${config.shutdownLimitMs / 1000} s).`,
    );
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
    answersFinished += 1;
    if (lifecycle.phase === "draining") setImmediate(() => server.closeIdleConnections());
  });
}

/** A figure that changes whenever an answer in flight moves: bytes read or written on its connection, or its end. */
function bytesMoved(): number {
  let moved = answersFinished;
  for (const response of openResponses)
    moved += (response.socket?.bytesRead ?? 0) + (response.socket?.bytesWritten ?? 0);
  return moved;
}
