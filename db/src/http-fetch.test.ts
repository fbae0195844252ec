import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { pooledFetch } from "./http-fetch.ts";

const server = createServer((incoming, outgoing) => {
  let body = "";
  incoming.on("data", (chunk) => (body += chunk));
  incoming.on("end", () => {
    if (incoming.url === "/empty") {
      outgoing.writeHead(204).end();
      return;
    }
    outgoing.writeHead(incoming.url === "/refused" ? 401 : 200, { "content-type": "application/json", "x-seen": "1" });
    outgoing.end(
      JSON.stringify({
        method: incoming.method,
        type: incoming.headers["content-type"],
        auth: incoming.headers.authorization,
        body,
        port: incoming.socket.remotePort,
      }),
    );
  });
});
let base = "";
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

it("sends a Request as fetch would and answers a Response with its status, headers and body", async () => {
  const http = pooledFetch();
  try {
    const asked = new Request(`${base}/v2/pipeline`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer T" },
      body: '{"requests":[]}',
    });
    const answer = await http.fetch(asked);
    expect(answer.ok).toBe(true);
    expect(answer.headers.get("x-seen")).toBe("1");
    const seen = await answer.json();
    expect(seen).toMatchObject({ method: "POST", type: "application/json", auth: "Bearer T", body: '{"requests":[]}' });
    const refused = await http.fetch(`${base}/refused`, { method: "POST", body: "x" });
    expect([refused.ok, refused.status]).toEqual([false, 401]);
    const empty = await http.fetch(`${base}/empty`);
    expect([empty.status, await empty.text()]).toEqual([204, ""]);
  } finally {
    await http.close();
  }
});

it("fails the request when the server cannot be reached", async () => {
  const http = pooledFetch();
  try {
    await expect(http.fetch("http://127.0.0.1:9/v2/pipeline", { method: "POST", body: "x" })).rejects.toThrow();
  } finally {
    await http.close();
  }
});
