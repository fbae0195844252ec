// The published contract: a valid OpenAPI 3.1 document that lists every route the app has.
import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../test-support.ts";
import { openApiPath } from "./openapi.ts";
import { specOf } from "./route.ts";

describe("the OpenAPI document", () => {
  let ctx: TestContext;
  let document: { openapi: string; paths: Record<string, Record<string, { responses: object }>> };
  beforeAll(async () => {
    ctx = await createTestContext();
    const response = await ctx.call("GET", "/openapi.json");
    expect(response.status).toBe(200);
    document = response.body as typeof document;
  });
  afterAll(async () => ctx.close());

  it("validates as OpenAPI 3.1", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it("lists every route the app routes, with its method, and nothing else", () => {
    const routed = ctx.app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => `${r.method} ${openApiPath("/api/v1", r.path)}`);
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(new Set(documented)).toEqual(new Set(routed));
    const undescribed = ctx.app.routes.filter((r) => r.method !== "ALL" && !specOf(r.handler));
    expect(undescribed.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it("shows the wire's snake_case names", () => {
    const me = document.paths["/users/me"]?.put as unknown as {
      requestBody: { content: { "application/json": { schema: { properties: object } } } };
    };
    expect(Object.keys(me.requestBody.content["application/json"].schema.properties)).toContain("first_name");
  });

  it("serves a reference page whose script comes from this site", async () => {
    const page = await ctx.app.request("/api/v1/docs");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('src="/api/v1/docs/scalar.js"');
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self' 'sha256-/);
    const script = await ctx.app.request("/api/v1/docs/scalar.js");
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });
});
