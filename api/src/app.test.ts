import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "./test-support.ts";

describe("the API's edge", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it("answers an unknown path, or a method a path does not take, with a JSON 404 in the caller's language", async () => {
    for (const [method, path] of [
      ["GET", "/nothing-here"],
      ["GET", "/units/1/nothing"],
      ["GET", "/frontend/selected-nodes/1"],
      ["PATCH", "/units/1"],
    ] as const) {
      const response = await ctx.call(method, path);
      expect(response.headers.get("content-type"), `${method} ${path}`).toMatch(/^application\/json/);
      expect(response, `${method} ${path}`).toMatchObject({ status: 404, body: { errors: ["Resource not found"] } });
    }
    expect((await ctx.call("GET", "/nothing-here", { headers: { "accept-language": "fr" } })).body.errors).toEqual([
      "Ressource introuvable",
    ]);
  });
});
