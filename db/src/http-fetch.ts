// The libSQL client's HTTP requests (Hrana over HTTP, `DATABASE_URL=http(s)://…`) sent with undici's `request` on a
// keep-alive pool of this database's own, instead of the global fetch. The fetch's own machinery (its Request and
// Response streams, abort signals, transferable objects) cost about as much CPU as the rest of an add to a basket
// over the wire: in the rush's profile (issue 32) undici's fetch and the web streams took a quarter of the API
// process, and the same 4,000 reads and batches took 1.3-1.8 ms of CPU each through fetch, 0.7-0.8 ms through this.
// What the client gets back is a real Response (status, headers, the body as its text), so any part of it works.
import { Agent, request } from "undici";

/** HTTP statuses whose Response may have no body. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

export interface PooledFetch {
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Closes the pool's connections once their requests are answered. */
  close(): Promise<void>;
}

export function pooledFetch(): PooledFetch {
  // Idle connections stay open a little less than a server's usual 5-65 s keep-alive, so we close them first.
  const pool = new Agent({ keepAliveTimeout: 4_000 });
  return {
    async fetch(input, init) {
      const asked = input instanceof Request ? input : new Request(input, init);
      const headers: Record<string, string> = {};
      asked.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const answer = await request(asked.url, {
        method: asked.method as "GET" | "POST",
        headers,
        body: asked.body ? await asked.text() : undefined,
        signal: asked.signal,
        dispatcher: pool,
      });
      const text = await answer.body.text();
      const answerHeaders = new Headers();
      for (const [name, value] of Object.entries(answer.headers))
        for (const each of [value ?? []].flat()) answerHeaders.append(name, each);
      const body = NO_BODY.has(answer.statusCode) ? null : text;
      return new Response(body, { status: answer.statusCode, headers: answerHeaders });
    },
    close: () => pool.close(),
  };
}
