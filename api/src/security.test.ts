// Issue 10, findings 3 and 4: every surface's security headers, the origins allowed to call the API, and the body
// limit (docs/decisions/0007). The pages' policies in a browser are checked by the journeys (e2e/fixtures.ts).
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "./env.ts";
import { MAX_BODY_BYTES } from "./lib/security.ts";
import { createProduct, type Product } from "./product.ts";
import {
  BILLING,
  createBuyer,
  createOnSaleEvent,
  createTestContext,
  loginAs,
  type TestContext,
} from "./test-support.ts";

const PUBLIC_URL = "https://tickets.example.org";
const SHOP = "https://shop.example.org";
const NONCE = /'nonce-([A-Za-z0-9+/]+=*)'/;

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Record<string, string> {
  return Object.fromEntries(
    (policy ?? "").split(";").map((directive) => {
      const [name = "", ...values] = directive.trim().split(/\s+/);
      return [name, values.join(" ")];
    }),
  );
}

/** A body of `total` bytes sent in 64 KB chunks, without Content-Length; counts what the server pulled. */
function chunkedBody(total: number) {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) return controller.close();
      pulled.bytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { pulled, init: { body: stream, duplex: "half" } as RequestInit };
}

/** `fetch` served on a socket of its own (a free port on 127.0.0.1), as `npm start` serves the product. */
async function onSocket(fetch: Parameters<typeof serve>[0]["fetch"]) {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A basket put in payment online: the URL of its demo payment page (a route with a policy of its own). */
async function demoPaymentPage(ctx: TestContext) {
  const sale = await createOnSaleEvent(ctx, { stock: 5, price: 2000 });
  const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
  const call = (path: string, body: object) => ctx.call("POST", path, { token: buyer.token, body });
  await call("/frontend/selected-nodes", { basket_id: buyer.basketId, node_id: sale.article.node.id });
  await call("/frontend/billing-information", { basket_id: buyer.basketId, ...BILLING });
  const checkout = await call(`/frontend/baskets/${buyer.basketId}/checkout`, {
    payment_method: "online",
    terms_accepted: true,
  });
  return new URL(checkout.body.payment_url);
}

describe("the product's answers (PUBLIC_URL on https)", () => {
  let product: Product;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "ticketing-security-"));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_MAILS: "false", PUBLIC_URL, CORS_ORIGINS: SHOP });
    product = await createProduct(config, { mailIntervalMs: 3_600_000 });
  });
  afterAll(async () => {
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const common = (response: Response) => {
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
    const policy = directives(response.headers.get("content-security-policy"));
    expect(policy["frame-ancestors"]).toBe("'none'");
    expect(policy["base-uri"]).toBe("'none'");
    expect(policy["object-src"]).toBe("'none'");
    return policy;
  };

  // The builds may be absent here: the "not built" 503 carries the headers too; a built page is checked whole.
  it.each([
    ["/", "strict-origin-when-cross-origin"],
    ["/tickets/demo", "strict-origin-when-cross-origin"],
    ["/legal/imprint", "strict-origin-when-cross-origin"],
    ["/tickets/demo/login/verify/1/a-secret-token", "no-referrer"],
    ["/tickets/preview/demo/login/third-party/a-secret-token", "no-referrer"],
  ])(
    "the ticket office's %s allows only its own files and what carries the request's nonce",
    async (path, referrer) => {
      const response = await product.app.request(path);
      const policy = common(response);
      expect(response.headers.get("referrer-policy")).toBe(referrer);
      expect(policy["default-src"]).toBe("'self'");
      const nonce = policy["script-src"]?.match(NONCE)?.[1];
      expect(policy["script-src"]).toBe(`'self' 'nonce-${nonce}'`);
      expect(policy["style-src"]).toBe(`'self' 'nonce-${nonce}'`);
      expect(policy["img-src"]).toBe("'self' data:");
      // Its forms post to itself; the payment form's answer leads on to Stripe Checkout's page, or to the demo
      // page on the same origin (PUBLIC_URL's when the browser did not say where it is, docs/decisions/0030).
      expect(policy["form-action"]).toBe(`'self' ${PUBLIC_URL} https://checkout.stripe.com`);
      if (response.status === 503) return;
      const html = await response.text();
      expect(html).toContain(`<script type="module" nonce="${nonce}">`);
      expect(html).toContain(`<meta name="csp-nonce" content="${nonce}"/>`);
      expect(html).not.toMatch(/<script(?![^>]*nonce=)[^>]*>[^<]/); // no inline script without it
    },
  );

  it("gives each request a nonce of its own", async () => {
    const nonces = await Promise.all(
      [1, 2, 3].map(async () =>
        (await product.app.request("/")).headers.get("content-security-policy")?.match(NONCE)?.at(1),
      ),
    );
    expect(new Set(nonces).size).toBe(3);
  });

  it.each(["/admin/", "/admin/events/1", "/admin/auth/password-reset-request/MQ/a-secret-token"])(
    "the back office's %s runs only its own scripts; its styles carry the request's nonce",
    async (path) => {
      const response = await product.app.request(path);
      const policy = common(response);
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(policy["script-src"]).toBe("'self'");
      const nonce = policy["style-src"]?.match(NONCE)?.[1];
      expect(policy["style-src"]).toBe(`'self' 'nonce-${nonce}'`);
      if (response.status === 503) return;
      expect(await response.text()).toContain(`<meta name="csp-nonce" content="${nonce}" />`);
    },
  );

  it.each(["/api/v1/config", "/api/v1/no-such-thing", "/api/v1/uploaded-images/999/file"])(
    "the API's %s may not be framed nor run anything",
    async (path) => {
      const response = await product.app.request(path);
      const policy = common(response);
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(policy["default-src"]).toBe("'none'");
      expect(policy["form-action"]).toBe("'none'");
    },
  );

  it("lets the configured origins' pages read the API, and no other", async () => {
    const preflight = (origin: string) =>
      product.app.request("/api/v1/auth/login", {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      });
    for (const origin of [PUBLIC_URL, SHOP]) {
      const allowed = await preflight(origin);
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get("access-control-allow-origin")).toBe(origin);
      expect(allowed.headers.get("access-control-allow-credentials")).toBeNull();
    }
    const refused = await preflight("https://evil.example");
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(refused.headers.get("access-control-allow-credentials")).toBeNull();
    expect(refused.headers.get("x-frame-options")).toBe("DENY");

    const read = await product.app.request("/api/v1/config", { headers: { origin: "https://evil.example" } });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
    expect(read.headers.get("vary")).toContain("Origin");
    const shop = await product.app.request("/api/v1/config", { headers: { origin: SHOP } });
    expect(shop.headers.get("access-control-allow-origin")).toBe(SHOP);
  });

  it("refuses a ticket-office form post over the limit with a page in the visitor's language", async () => {
    const response = await product.app.request("/tickets/demo/buy", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "fr-CH" },
      body: `note=${"x".repeat(2 * 1024 * 1024)}`,
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(await response.text()).toContain("La requête dépasse les 1 Mo autorisés");

    const { pulled, init } = chunkedBody(50 * 1024 * 1024);
    const chunked = await product.app.request("/tickets/demo/buy", {
      ...init,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(chunked.status).toBe(413);
    expect(await chunked.text()).toContain("The request is larger than the 1 MB allowed");
    expect(pulled.bytes).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * 64 * 1024);
  });
});

describe("CORS_ORIGINS", () => {
  const read = (value: string) => {
    const dataDir = mkdtempSync(join(tmpdir(), "ticketing-config-"));
    try {
      return loadConfig({ DATA_DIR: dataDir, CORS_ORIGINS: value }).corsOrigins;
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  };

  it("reads origins separated by commas or spaces", () => {
    expect(read("")).toEqual([]);
    expect(read("https://Shop.example.org/, http://localhost:5173 https://www.example.org:443")).toEqual([
      "https://shop.example.org",
      "http://localhost:5173",
      "https://www.example.org",
    ]);
  });

  it.each([
    "https://shop.example.org/path",
    "ftp://files.example.org",
    "shop.example.org",
    "https://a@shop.example.org",
  ])("refuses %s, which is not an http(s) origin", (value) => {
    expect(() => read(value)).toThrow(`CORS_ORIGINS: not an http(s) origin: ${value}`);
  });
});

describe("the API on its own (PUBLIC_URL on http)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it("sends no HSTS over http, and refuses other origins (it echoed any, with credentials)", async () => {
    const response = await ctx.app.request("/api/v1/config", { headers: { origin: "https://evil.example" } });
    expect(response.headers.get("strict-transport-security")).toBeNull();
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    const own = await ctx.app.request("/api/v1/config", { headers: { origin: "http://localhost:3000" } });
    expect(own.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
  });

  it("answers 413 in the caller's language to a 2 MB JSON body", async () => {
    const body = JSON.stringify({ email: "a@example.org", password: "x".repeat(2 * 1024 * 1024) });
    const english = await ctx.call("POST", "/auth/login", { body });
    expect(english.status).toBe(413);
    expect(english.body).toEqual({ errors: ["The request is larger than the 1 MB allowed"] });
    const french = await ctx.call("POST", "/auth/login", { body, headers: { "accept-language": "fr" } });
    expect(french.body).toEqual({ errors: ["La requête dépasse les 1 Mo autorisés"] });
  });

  it("answers 413 to a chunked body as soon as it passes the limit, without reading the rest", async () => {
    const { pulled, init } = chunkedBody(50 * 1024 * 1024);
    const response = await ctx.app.request("/api/v1/auth/login", {
      ...init,
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ errors: ["The request is larger than the 1 MB allowed"] });
    expect(pulled.bytes).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * 64 * 1024);
  });

  it("still takes an image upload over 1 MB (the upload keeps its own 5 MB limit)", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 1, status: "draft" });
    const token = await loginAs(ctx, sale.email, sale.password);
    const png = Buffer.alloc(2 * 1024 * 1024);
    Buffer.from("89504e470d0a1a0a", "hex").copy(png);
    const form = new FormData();
    form.set("event_id", String(sale.event.id));
    form.set("file", new File([png], "large.png", { type: "image/png" }));
    const response = await ctx.app.request("/api/v1/uploaded-images", {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(201);
  });

  it("serves the demo payment page under a policy of its own that its one inline style passes", async () => {
    const url = await demoPaymentPage(ctx);
    const page = await ctx.app.request(url.pathname + url.search);
    expect(page.status).toBe(200);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await page.text();
    const style = html.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? "";
    const hash = createHash("sha256").update(style).digest("base64");
    expect(directives(page.headers.get("content-security-policy"))).toEqual({
      "default-src": "'none'",
      "style-src": `'sha256-${hash}'`,
      "form-action": "'self'",
      "frame-ancestors": "'none'",
      "base-uri": "'none'",
    });
    expect(html).not.toContain("<script");
  });
});

describe("the API over its socket (headers set on the Node answer, lib/direct-answer.ts)", () => {
  let ctx: TestContext;
  let server: ReturnType<typeof serve>;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    ({ server, base } = await onSocket(ctx.app.fetch));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await ctx.close();
  });

  /** An answer's headers, but those of the connection and the length, which only the socket's answer has. */
  const headersOf = (response: Response) =>
    Object.fromEntries(
      [...response.headers].filter(
        ([name]) => !["date", "connection", "keep-alive", "content-length", "x-request-id"].includes(name),
      ),
    );

  it("answers every kind of answer with the same headers as in-process, a route's own policy kept", async () => {
    const paymentPage = await demoPaymentPage(ctx);
    const cases: [string, RequestInit][] = [
      ["/api/v1/config", { headers: { origin: "http://localhost:3000" } }],
      ["/api/v1/config", { headers: { origin: "https://evil.example" } }],
      ["/api/v1/no-such-path", {}],
      ["/api/v1/frontend/selected-nodes", { method: "POST", headers: { "content-type": "application/json" } }],
      [paymentPage.pathname + paymentPage.search, {}],
    ];
    for (const [path, init] of cases) {
      const overSocket = await fetch(base + path, init);
      const inProcess = await ctx.app.request(path, init);
      expect(overSocket.status).toBe(inProcess.status);
      expect(headersOf(overSocket)).toEqual(headersOf(inProcess));
      expect(overSocket.headers.get("x-request-id")).toMatch(/^[\w-]{36}$/);
    }
    const page = await fetch(base + paymentPage.pathname + paymentPage.search);
    expect(directives(page.headers.get("content-security-policy"))["style-src"]).toMatch(/^'sha256-/);
    const json = await fetch(`${base}/api/v1/config`, { headers: { "x-request-id": "rush-42" } });
    expect(json.headers.get("x-request-id")).toBe("rush-42");
    expect(json.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});

describe("the ticket office over its socket (headers set on the Node answer, lib/security.ts)", () => {
  let product: Product;
  let dataDir: string;
  let server: ReturnType<typeof serve>;
  let base: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "ticketing-security-"));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_MAILS: "false", PUBLIC_URL, CORS_ORIGINS: SHOP });
    product = await createProduct(config, { mailIntervalMs: 3_600_000 });
    ({ server, base } = await onSocket(product.app.fetch));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** An answer's headers, the nonce left out, and those of the connection, which only the socket's answer has. */
  const headersOf = (response: Response) =>
    Object.fromEntries(
      [...response.headers]
        .filter(([name]) => !["date", "connection", "keep-alive", "content-length", "x-request-id"].includes(name))
        .map(([name, value]) => [name, value.replace(new RegExp(NONCE, "g"), "'nonce-…'")]),
    );

  it.each([
    ["/", {}],
    ["/tickets/demo", {}],
    ["/legal/imprint", {}],
    ["/tickets/demo/login/verify/1/a-secret-token", {}],
    ["/tickets/no-such-event", {}],
    ["/no-such-file.js", {}],
    ["/tickets/demo/login", { method: "POST", headers: { origin: "https://evil.example" } }],
  ] as [string, RequestInit][])(
    "answers %s with the same headers as in-process, and its own nonce",
    async (path, init) => {
      const overSocket = await fetch(base + path, { redirect: "manual", ...init });
      const inProcess = await product.app.request(path, init);
      expect(overSocket.status).toBe(inProcess.status);
      expect(headersOf(overSocket)).toEqual(headersOf(inProcess));
      const nonce = overSocket.headers.get("content-security-policy")?.match(NONCE)?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      const html = await overSocket.text();
      if (overSocket.status === 200 && html.includes("<script")) expect(html).toContain(`nonce="${nonce}"`);
    },
  );

  it("gives each page a nonce of its own", async () => {
    const nonces = await Promise.all(
      Array.from(
        { length: 300 },
        async () => (await fetch(`${base}/legal/imprint`)).headers.get("content-security-policy")?.match(NONCE)?.[1],
      ),
    );
    expect(new Set(nonces).size).toBe(300);
  });
});
