// A request body its answer did not need — a 401 before the body is looked at, a 413 decided from Content-Length,
// a redirect — is still arriving when the answer goes out (docs/decisions/0035). Left alone, those bytes block the
// connection: the request's body stream (the web stream Hono reads) pauses the socket once its buffer is full, and
// nothing reads it again, so a kept-alive connection never gets to the client's next request. This settles such a
// body as the answer is made: a small rest is read and thrown away, and the connection serves the next request; a
// larger one makes the answer say `Connection: close`, and the connection closes without a reset.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { MAX_BODY_BYTES } from "./security.ts";

/**
 * The largest unread body that is read to the end (and thrown away) to keep its connection: what a JSON or form
 * body may weigh. Reading more for nothing would let any client make the server read without limit.
 */
export const DRAIN_LIMIT_BYTES = MAX_BODY_BYTES;

/**
 * How long a connection that said `Connection: close` goes on reading (and throwing away) what its client still
 * sends after the answer. Closed at once, the server's system would answer those bytes with a reset, and a
 * client still sending its body would often lose the answer with it (an EPIPE instead of the 413).
 */
export const LINGER_MS = 5_000;

/**
 * Called once the answer to `request` is made, before its head is written. Does nothing for a body read to its
 * end (the usual case) or one that had nothing to read.
 */
export function settleUnreadBody(
  request: IncomingMessage,
  response: ServerResponse,
  limits: { drainBytes?: number; lingerMs?: number } = {},
): void {
  if (request.readableEnded) return;
  const { drainBytes = DRAIN_LIMIT_BYTES, lingerMs = LINGER_MS } = limits;
  // Everything received (`complete`) is already in memory: dropping it costs nothing. Otherwise only a body whose
  // length is announced, and small enough, is waited for.
  const declared = Number(request.headers["content-length"]);
  if (request.complete || (Number.isSafeInteger(declared) && declared <= drainBytes)) {
    throwAway(request);
    return;
  }
  response.shouldKeepAlive = false;
  const socket = response.socket;
  // Node closes a connection whose answer said `close` with `destroySoon` once the answer is written: a reset
  // while the client may still be sending. This one finishes its side, reads what still comes, then closes.
  if (socket) socket.destroySoon = () => lingerThenClose(socket, request, lingerMs);
}

/** Reads the rest of the body as it arrives and drops it: the connection's reading goes on to the next request. */
function throwAway(request: IncomingMessage) {
  // The body's web stream pauses the request whenever its own buffer is full; nobody will read that stream now.
  request.removeAllListeners("data");
  request.resume();
}

function lingerThenClose(socket: Socket, request: IncomingMessage, lingerMs: number) {
  socket.end();
  throwAway(request);
  // The client closes its side once it has the answer and has sent its body; one that keeps sending is cut off.
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}
