import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../env.ts";
import { createTestContext, type TestContext } from "../test-support.ts";
import { clientAddress, parseProxyEntry, trustedProxies } from "./client-address.ts";
import { RATE_RULES } from "./rate-limit.ts";

describe("clientAddress", () => {
  const trusted = trustedProxies(["10.0.0.0/8", "192.0.2.7", "fd00::/8"]);

  it("is the connection's address when the connection is not a trusted proxy's, whatever X-Forwarded-For says", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.1", trusted)).toBe("203.0.113.9");
    expect(clientAddress("203.0.113.9", undefined, trustedProxies([]))).toBe("203.0.113.9");
  });

  it("is the address a trusted proxy received from", () => {
    expect(clientAddress("10.1.2.3", "198.51.100.1", trusted)).toBe("198.51.100.1");
    expect(clientAddress("::ffff:192.0.2.7", "198.51.100.1", trusted)).toBe("198.51.100.1");
    expect(clientAddress("fd00::1", "2001:db8::5", trusted)).toBe("2001:db8::5");
  });

  it("walks back through a chain of trusted proxies, and no further than the first untrusted hop", () => {
    // The client wrote 1.1.1.1 itself; 198.51.100.1 is who reached the outer proxy.
    expect(clientAddress("10.0.0.1", "1.1.1.1, 198.51.100.1, 10.0.0.2", trusted)).toBe("198.51.100.1");
  });

  it("stops at a hop that is not an address", () => {
    expect(clientAddress("10.0.0.1", "198.51.100.1, unknown", trusted)).toBe("10.0.0.1");
  });

  it("takes addresses and subnets, and nothing else", () => {
    expect(parseProxyEntry("10.0.0.0/8")).toEqual({ address: "10.0.0.0", prefix: 8 });
    expect(parseProxyEntry("2001:db8::1")).toEqual({ address: "2001:db8::1", prefix: null });
    for (const bad of ["10.0.0.0/33", "example.org", "10.0.0.1/8/2", "10.0.0.0/x"])
      expect(parseProxyEntry(bad)).toBe(null);
    expect(() => loadConfig({ DATA_DIR: "/tmp/ticketing-proxies", TRUSTED_PROXIES: "10.0.0.0/8 proxy.lan" })).toThrow(
      /TRUSTED_PROXIES: not an IP address or subnet: proxy.lan/,
    );
  });
});

/**
 * The API on a real port, reached as through a proxy on 127.0.0.1: each request says which client it forwards.
 * With 127.0.0.1 trusted, two clients behind the proxy have their own sign-in limits; without, they share the
 * proxy's (and a client cannot escape its limit by writing X-Forwarded-For).
 */
describe.each([
  ["trusted", "127.0.0.1"],
  ["not trusted", ""],
] as const)("sign-in limits behind a proxy on 127.0.0.1 (%s)", (trust, proxies) => {
  let ctx: TestContext;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    ctx = await createTestContext("better-sqlite3", { TRUSTED_PROXIES: proxies });
    const listener = getRequestListener((request, env) => ctx.app.fetch(request, env));
    server = createServer((request: IncomingMessage, response) => listener(request, response));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await ctx.close();
  });

  const signIn = (forwardedFor: string, password: string) =>
    fetch(`${url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ email: "nobody-behind-the-proxy@example.org", password }),
    }).then((response) => response.status);

  it(trust === "trusted" ? "counts each client apart" : "counts every client as the proxy", async () => {
    const allowance = RATE_RULES.loginFailuresPerAccountAndIp.limit;
    for (let n = 0; n < allowance; n++) expect(await signIn("198.51.100.1", "wrong password")).toBe(400);
    expect(await signIn("198.51.100.1", "wrong password")).toBe(429);
    // Another client behind the same proxy.
    expect(await signIn("198.51.100.2", "wrong password")).toBe(trust === "trusted" ? 400 : 429);
  });
});
