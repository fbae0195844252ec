// The ticket office calls the API in-process: those calls must carry the visitor's own address.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressFile } from "../../scripts/precompress.ts";
import { inProcessApiFetch, mountAdmin } from "./product.ts";
import { createUser } from "./services/accounts/sessions.ts";
import { createTestContext, type TestContext } from "./test-support.ts";

const PASSWORD = "correct-horse-battery-1!";
/** What @hono/node-server hands a request as its environment: the visitor's socket. */
const visitor = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });

describe("the storefront's in-process API calls", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await createUser(ctx.database, { email: "owner@example.org", password: PASSWORD });
  });
  afterAll(async () => ctx.close());

  const signIn = (address: string, password: string) =>
    inProcessApiFetch(ctx.app, visitor(address))("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "owner@example.org", password }),
    });

  it("count sign-in attempts per visitor: an attacker using the ticket office does not lock the owner out", async () => {
    for (let i = 0; i < 10; i++) expect((await signIn("203.0.113.66", "wrong-password-123")).status).toBe(400);
    const attacker = await signIn("203.0.113.66", PASSWORD);
    expect(attacker.status).toBe(429);
    // Every visitor counted as one address ("local") before: the owner then got 429 too.
    expect((await signIn("198.51.100.7", PASSWORD)).status).toBe(200);
  });

  it("send a page's reads (no body) through the API's checks with the headers given", async () => {
    const { access_token } = await (await signIn("198.51.100.8", PASSWORD)).json();
    const read = (headers: HeadersInit) => inProcessApiFetch(ctx.app, visitor("198.51.100.8"))("/auth/me", { headers });
    const me = await read(new Headers({ Authorization: `Bearer ${access_token}` }));
    expect(me.status).toBe(200);
    expect(JSON.stringify(await me.json())).toContain("owner@example.org");
    // A forged token is refused as it would be over HTTP; plain header objects are taken too.
    expect((await read({ Authorization: `Bearer ${access_token}x` })).status).toBe(401);
    expect(JSON.stringify(await (await read({})).json())).not.toContain("owner@example.org");
  });
});

describe("the back office's files", () => {
  // A build's output as Vite and scripts/precompress.ts write it: a hashed script with its .br and .gz copies.
  const dist = mkdtempSync(join(tmpdir(), "admin-dist-"));
  const script = join(dist, "assets/index-Ab12Cd34.js");
  const tiny = join(dist, "assets/empty-Ef56Gh78.js");
  const app = new Hono();
  beforeAll(async () => {
    mkdirSync(join(dist, "assets"));
    writeFileSync(
      join(dist, "index.html"),
      '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(script, Array.from({ length: 500 }, (_, i) => `export const screen${i} = () => "${i}";`).join("\n"));
    writeFileSync(tiny, "0");
    await Promise.all([precompressFile(script), precompressFile(tiny)]);
    mountAdmin(app, dist);
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  const get = (path: string, acceptEncoding?: string) =>
    app.request(path, { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} });
  const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

  it("send a hashed script as brotli to a browser that accepts it, decoding to the file, cached for good", async () => {
    const response = await get("/admin/assets/index-Ab12Cd34.js", "gzip, deflate, br, zstd");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("content-type")).toMatch(/javascript/);
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const body = await bytes(response);
    expect(body.byteLength).toBeLessThan(readFileSync(script).byteLength);
    expect(brotliDecompressSync(body)).toEqual(readFileSync(script));
  });

  it("send it as gzip where only gzip is accepted, and as it is where nothing is", async () => {
    const gzipped = await get("/admin/assets/index-Ab12Cd34.js", "gzip");
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(await bytes(gzipped))).toEqual(readFileSync(script));
    const plain = await get("/admin/assets/index-Ab12Cd34.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await bytes(plain)).toEqual(readFileSync(script));
  });

  it("send a file that compression would enlarge as it is (the build wrote no copy of it)", async () => {
    const response = await get("/admin/assets/empty-Ef56Gh78.js", "gzip, deflate, br");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect((await bytes(response)).toString()).toBe("0");
  });

  it("never let the page be reused from a cache (its nonce is per request), nor a missing asset fall back to it", async () => {
    for (const path of ["/admin/", "/admin/index.html", "/admin/events/1/edit"]) {
      const page = await get(path, "br");
      expect(page.status).toBe(200);
      expect(page.headers.get("cache-control")).toBe("no-cache");
      expect(page.headers.get("content-encoding")).toBeNull();
      expect(await page.text()).toContain('<meta name="csp-nonce"');
    }
    expect((await get("/admin/assets/index-Zz99Yy88.js", "br")).status).toBe(404);
  });
});
