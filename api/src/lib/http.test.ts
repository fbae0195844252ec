import { MAX_NESTING } from "@ticketing/shared/case";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createUser } from "../services/accounts/sessions.ts";
import { createTestContext, loginAs, type TestContext } from "../test-support.ts";
import { parseId, parseWith, zId } from "./http.ts";

describe("ids", () => {
  it("reads a positive safe integer, as a number or in decimal digits", () => {
    for (const [input, id] of [
      [1, 1],
      ["1", 1],
      [42, 42],
      ["9007199254740991", Number.MAX_SAFE_INTEGER],
    ] as const)
      expect(parseId(input)).toBe(id);
  });

  it("refuses anything else: booleans, lists, other notations, signs, spaces, fractions, zero, unsafe sizes", () => {
    for (const input of [
      true,
      false,
      null,
      undefined,
      [1],
      { id: 1 },
      "0x1",
      "0b1",
      "0o1",
      "1e3",
      "1.0",
      " 1",
      "1 ",
      "+1",
      "-1",
      "01",
      "",
      "١",
      0,
      -1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2 ** 53,
      "9007199254740992",
      "99999999999999999999",
    ])
      expect(parseId(input), JSON.stringify(input) ?? String(input)).toBeNull();
  });

  it("answers a bad id in a body with a 400 naming the field, and converts digits to a number", () => {
    const schema = z.strictObject({ unitId: zId, nodeIds: z.array(zId).optional() });
    expect(parseWith(schema, { unitId: "12", nodeIds: [3, "4"] })).toEqual({ unitId: 12, nodeIds: [3, 4] });
    for (const unitId of [true, [1], "0x1", 1.5, 0, "1e3"])
      expect(() => parseWith(schema, { unitId })).toThrow(
        expect.objectContaining({
          kind: "invalid",
          messages: ["errors.id_invalid"],
          fieldErrors: { unit_id: "errors.id_invalid" },
        }),
      );
    expect(() => parseWith(schema, { unitId: 1, nodeIds: [1, true] })).toThrow(
      expect.objectContaining({ fieldErrors: { "node_ids.1": "errors.id_invalid" } }),
    );
  });
});

describe("request bodies", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it("answers a form body that cannot be parsed with a 400, not a 500", async () => {
    for (const body of ["", "not a multipart body", "--x\r\nContent-Disposition: form-data\r\n\r\nno name\r\n"]) {
      const response = await ctx.call("POST", "/auth/login", {
        body,
        headers: { "content-type": "multipart/form-data; boundary=x" },
      });
      expect(response, JSON.stringify(body)).toMatchObject({
        status: 400,
        body: { errors: ["The request body is not a valid form"] },
      });
    }
    const french = await ctx.call("POST", "/auth/login", {
      body: "junk",
      headers: { "content-type": "multipart/form-data; boundary=x", "accept-language": "fr" },
    });
    expect(french.body.errors).toEqual(["Le corps de la requête n'est pas un formulaire valide"]);
  });

  it("reads a well-formed form body like a JSON one", async () => {
    const form = new FormData();
    form.append("email", "nobody@example.org");
    const response = await ctx.app.request("/api/v1/auth/login", { method: "POST", body: form });
    expect(await response.json()).toMatchObject({ field_errors: { password: expect.any(String) } });
  });
});

/** `depth` arrays inside each other around a 1, or `{"a": …}` objects. */
const nestedArrays = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("deeply nested requests", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it("answers a body nested 2,000 deep with a 400 in the caller's language, signed in or not", async () => {
    for (const body of [nestedArrays(2_000), nestedObjects(2_000)]) {
      expect(await ctx.call("POST", "/auth/login", { body })).toMatchObject({
        status: 400,
        body: { errors: [`The request nests deeper than ${MAX_NESTING} levels`] },
      });
      expect(await ctx.call("POST", "/auth/register", { body, headers: { "accept-language": "fr" } })).toMatchObject({
        status: 400,
        body: { errors: [`La requête est imbriquée sur plus de ${MAX_NESTING} niveaux`] },
      });
    }
  });

  it("answers a list filter nested 2,000 deep with a 400", async () => {
    const filter = encodeURIComponent(`{"event_id":${nestedArrays(2_000)}}`);
    await createUser(ctx.database, { email: "deep@example.org", password: "correct-horse-battery-1!" });
    const token = await loginAs(ctx, "deep@example.org", "correct-horse-battery-1!");
    expect(await ctx.call("GET", `/events?filter=${filter}`, { token })).toMatchObject({
      status: 400,
      body: { errors: [`The request nests deeper than ${MAX_NESTING} levels`] },
    });
  });
});
