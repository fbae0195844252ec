// The Node answer of a request made to this server itself, for headers every answer of a middleware carries.
import type { ServerResponse } from "node:http";
import type { Context } from "hono";

/**
 * The Node answer (`outgoing`) of a request that came over this server's socket: not one of the ticket office's
 * in-process calls (their env names the page's request id, and their answer is not the page's), not a test's
 * `app.request`. A header set on it before the handler runs is merged into whatever answer is written, and the
 * answer's own header of the same name wins (node's `writeHead`). Set there, the headers every answer carries cost
 * a tenth of what they cost on the web Response: that makes @hono/node-server build a `Headers` object, check
 * each header on it and turn it back into Node's, where the handler's plain JSON answer is otherwise written as it is.
 */
export function directAnswer(c: Context): ServerResponse | undefined {
  const env = c.env as { outgoing?: ServerResponse; requestId?: string } | undefined;
  const outgoing = env?.outgoing;
  return outgoing && env.requestId === undefined && !outgoing.headersSent ? outgoing : undefined;
}

/**
 * One of the ticket office's in-process calls (its env names the page's request id): its answer goes to the page's
 * loader or action, never to a browser, so the headers meant for browsers are not set on it.
 */
export function isInProcessCall(c: Context): boolean {
  return (c.env as { requestId?: string } | undefined)?.requestId !== undefined;
}
