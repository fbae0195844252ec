import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schema, sql } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../env.ts";
import { createProduct, type Product } from "../product.ts";
import { createUser } from "../services/accounts/sessions.ts";
import { createLogger, pathForLog } from "./log.ts";

/** A logger at `level` whose lines are kept, as written, in `lines`. */
function capturedLogger(level: "info" | "debug" = "debug") {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level, destination: { write: (line: string) => lines.push(line) } }) };
}

const SECRET_KEY = "s3cret-key-of-the-product-0123456789abcdef";
const PASSWORD = "Tr0ub4dor&3-horse-battery";
const WRONG_PASSWORD = "wr0ng-Password-guess-42!";
const COOKIE = "__session=c00kie-value-9f8e7d6c5b4a";
const ORDER_TOKEN = `12.34.${"ab12".repeat(16)}`;
const LOGIN_TOKEN = "l0gin-link-token-5e6f7a8b";
const QUERY_TOKEN = "query-token-1a2b3c4d5e";

describe("the product's logs", () => {
  const { lines, logger } = capturedLogger();
  let product: Product;
  let dataDir: string;
  const secrets: Record<string, string> = {
    password: PASSWORD,
    "wrong password": WRONG_PASSWORD,
    cookie: COOKIE.split("=")[1] as string,
    "order-link token": ORDER_TOKEN,
    "login-link token": LOGIN_TOKEN,
    "query token": QUERY_TOKEN,
    SECRET_KEY,
  };
  /** Every answer's X-Request-Id, by what the request was. */
  const answered: Record<string, { id: string; status: number }> = {};

  const request = async (name: string, path: string, init: RequestInit = {}) => {
    const response = await product.app.request(path, init);
    answered[name] = { id: response.headers.get("x-request-id") ?? "", status: response.status };
    return response;
  };
  const postJson = (name: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(name, path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "ticketing-log-"));
    const config = loadConfig({
      DATA_DIR: dataDir,
      SECRET_KEY,
      LOG_MAILS: "true",
      PUBLIC_URL: "http://localhost:3000",
    });
    product = await createProduct(config, { seed: false, mailIntervalMs: 3_600_000, logger });
    await createUser(product.database, { email: "ops@example.org", password: PASSWORD });

    const signIn = await postJson("sign-in", "/api/v1/auth/login", { email: "ops@example.org", password: PASSWORD });
    const tokens = (await signIn.json()) as { access_token: string; refresh_token: string };
    secrets["access token"] = tokens.access_token;
    secrets["refresh token"] = tokens.refresh_token;
    await postJson("wrong password", "/api/v1/auth/login", { email: "ops@example.org", password: WRONG_PASSWORD });
    const refreshed = await postJson("refresh", "/api/v1/auth/token/refresh", { refresh_token: tokens.refresh_token });
    const renewed = (await refreshed.json()) as { access_token: string; refresh_token: string };
    secrets["renewed access token"] = renewed.access_token;
    secrets["renewed refresh token"] = renewed.refresh_token;
    await request("me", "/api/v1/auth/me", {
      headers: { authorization: `Bearer ${renewed.access_token}`, cookie: COOKIE, "x-request-id": "lb-7f3a9c" },
    });
    await request("unsafe id", "/api/v1/config", { headers: { "x-request-id": "not safe\u0001<script>" } });
    await request("order link", `/api/v1/frontend/orders/${ORDER_TOKEN}?download=${QUERY_TOKEN}`);
    await request("order page", `/tickets/demo/orders/${ORDER_TOKEN}`, { headers: { cookie: COOKIE } });
    await request("login link", `/tickets/demo/login/verify/7/${LOGIN_TOKEN}?next=${QUERY_TOKEN}`);
    await request("list with a query token", `/api/v1/events?token=${QUERY_TOKEN}`, {
      headers: { authorization: `Bearer ${renewed.access_token}` },
    });
    // A password-reset mail: its link (a key to the account) is in the .eml, never in a log line.
    await postJson("reset request", "/api/v1/auth/password-reset-request", { email: "ops@example.org" });
    // The link is issued and its mail queued after the answer.
    await product.afterAnswer.settled();
    await product.mailWorker.flush();
    const mails = await product.database.db.select().from(schema.mailOutbox).all();
    const link = String((mails[0]?.payload as { link?: unknown } | undefined)?.link ?? "");
    secrets["reset-link token"] = link.split("/").at(-1) ?? "";
    // A failing request: the sessions' table is gone, the refresh fails inside its query (a 500).
    await product.database.db.run(sql`DROP TABLE refresh_tokens`);
    await postJson("failing refresh", "/api/v1/auth/token/refresh", { refresh_token: renewed.refresh_token });
  });
  afterAll(async () => {
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  it("writes JSON lines only, each request's carrying its id, which the answer gives in X-Request-Id", () => {
    expect(lines.length).toBeGreaterThan(10);
    expect(() => entries()).not.toThrow();
    for (const [name, { id }] of Object.entries(answered)) {
      expect(id, name).toMatch(/^[\w=-]{1,64}$/);
      const own = entries().filter((entry) => entry.reqId === id);
      // One request line per request; an in-process API call of a page has its own, at debug level.
      const requestLine = own.find((entry) => entry.msg === "request" && entry.level !== 20);
      expect(requestLine, name).toMatchObject({ res: { status: answered[name]?.status } });
      expect(requestLine?.responseTime, name).toBeTypeOf("number");
    }
    // Every line was written for a request, or by background work that says what it is.
    for (const entry of entries()) expect(entry.reqId ?? entry.task, JSON.stringify(entry)).toBeDefined();
  });

  it("refuses an unknown LOG_LEVEL at start-up", () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
  });

  it("keeps a caller's safe request id and replaces an unsafe one", () => {
    expect(answered.me?.id).toBe("lb-7f3a9c");
    expect(answered["unsafe id"]?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("gives a page's API calls the page's request id", () => {
    // Pages need the ticket office's build (`npm test` builds before its unit tests).
    const built = new URL("../../../storefront/build/server/index.js", import.meta.url);
    expect(existsSync(built), "the storefront is built (npm run build)").toBe(true);
    const page = answered["order page"]?.id;
    const calls = entries().filter((entry) => entry.reqId === page && entry.msg === "request");
    const paths = calls.map((entry) => (entry.req as { path: string }).path);
    expect(paths).toContain("/tickets/demo/orders/[redacted]");
    expect(paths.filter((path) => path.startsWith("/api/v1/")).length).toBeGreaterThan(0);
  });

  it("logs the failure with its stack under the failing request's id, and answers 500", () => {
    const failing = answered["failing refresh"];
    expect(failing?.status).toBe(500);
    const failure = entries().find((entry) => entry.reqId === failing?.id && entry.msg === "request failed");
    expect(failure).toMatchObject({ level: 50, err: { stack: expect.stringContaining("refresh_tokens") } });
  });

  it("logs a mail by its file, without its link", () => {
    const mail = entries().find((entry) => entry.msg === "mail written");
    expect(mail).toMatchObject({ task: "mail", kind: "password_reset", file: expect.stringContaining(".eml") });
    expect(secrets["reset-link token"]?.length).toBeGreaterThan(10);
  });

  it("holds no password, token, cookie, link key or secret key", () => {
    const text = lines.join("");
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(8);
      expect(text.includes(secret), `${name} in the logs`).toBe(false);
    }
  });
});

describe("redaction", () => {
  it("replaces secret-named fields at any depth, the credential headers included", () => {
    const { lines, logger } = capturedLogger("info");
    logger.info({
      req: { headers: { authorization: "Bearer abc.def", cookie: "a=b1c2", "set-cookie": "s=d3e4" } },
      body: { user: { password: "hunter2!!", password_confirmation: "hunter2!!" }, refresh_token: "rt-123456" },
      stripe: [{ apiKey: "sk_live_999", secretKey: "whsec_888", cardNumber: "4242424242424242" }],
      kept: "visible",
    });
    const text = lines.join("");
    for (const secret of ["abc.def", "a=b1c2", "d3e4", "hunter2", "rt-123456", "sk_live", "whsec", "4242"])
      expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({
      req: { headers: { authorization: "[redacted]", cookie: "[redacted]", "set-cookie": "[redacted]" } },
      kept: "visible",
    });
  });

  it("cuts a failed query's parameters out of an error's message and stack", () => {
    const { lines, logger } = capturedLogger("info");
    logger.error({ err: new Error("Failed query: select 1 where token = ?\nparams: tok-31415926") }, "failed");
    expect(lines.join("")).not.toContain("tok-31415926");
    expect(lines.join("")).toContain("Failed query: select 1 where token = ?");
  });

  it("logs the path of a login link or an order link without its key", () => {
    expect(pathForLog("/tickets/preview/ball/login/verify/12/k3y")).toBe(
      "/tickets/preview/ball/login/verify/12/[redacted]",
    );
    expect(pathForLog("/tickets/ball/login/third-party/k3y")).toBe("/tickets/ball/login/third-party/[redacted]");
    expect(pathForLog("/api/v1/frontend/orders/1.2.abc/tickets/4")).toBe(
      "/api/v1/frontend/orders/[redacted]/tickets/4",
    );
    expect(pathForLog("/api/v1/events/3")).toBe("/api/v1/events/3");
  });
});
