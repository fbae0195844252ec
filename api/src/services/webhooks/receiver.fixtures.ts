// A webhook receiver as the README documents it, on a real local port: it checks each delivery's signature and
// timestamp (verifyWebhook), refuses what fails (401), and takes each `Webhook-Id` once (a repeat is answered 200
// and ignored). Tests read what it took, what it refused, and every request it saw.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { verifyWebhook, type WebhookVerdict } from "@ticketing/shared/webhook-signature";

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The body parsed: `{ type, timestamp, data }`. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the sender put in
  payload: any;
  verdict: WebhookVerdict;
}

export interface Receiver {
  url: string;
  /** Every request, in order of arrival. */
  seen: Received[];
  /** The deliveries taken: signature valid, id not taken before. */
  taken: Received[];
  /** How it answers: a status, or `hold` (answers nothing until released or closed). */
  mode: number | "hold";
  /** Called when a delivery was taken, before its answer is written (a test may hold the sender's database). */
  onTaken?: (received: Received) => Promise<void> | void;
  release(): void;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** `secret()` is read at each request (a test registers the endpoint after starting the receiver). */
export async function startReceiver(secret: () => string, now: () => Date = () => new Date()): Promise<Receiver> {
  const takenIds = new Set<string>();
  const held: (() => void)[] = [];
  const receiver = {
    seen: [] as Received[],
    taken: [] as Received[],
    mode: 200 as number | "hold",
  } as Receiver;
  const server: Server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    const header = (name: string) => String(request.headers[name] ?? "");
    const headers = {
      id: header("webhook-id"),
      timestamp: header("webhook-timestamp"),
      signature: header("webhook-signature"),
    };
    const verdict = verifyWebhook(secret(), headers, body, now());
    const received: Received = { ...headers, body, payload: JSON.parse(body), verdict };
    receiver.seen.push(received);
    if (receiver.mode === "hold") {
      await new Promise<void>((done) => held.push(done));
      if (response.destroyed) return;
    }
    if (!verdict.ok) {
      response.writeHead(401).end();
      return;
    }
    const status = receiver.mode === "hold" ? 200 : receiver.mode;
    if (status >= 200 && status < 300 && !takenIds.has(headers.id)) {
      takenIds.add(headers.id);
      receiver.taken.push(received);
      await receiver.onTaken?.(received);
    }
    response.writeHead(status).end();
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  receiver.url = `http://127.0.0.1:${address.port}/hooks`;
  receiver.release = () => {
    for (const done of held.splice(0)) done();
  };
  receiver.close = () =>
    new Promise<void>((done) => {
      receiver.release();
      server.closeAllConnections();
      server.close(() => done());
    });
  return receiver;
}
