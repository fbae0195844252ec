import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../services/auth.ts";
import { createTestContext, loginAs, type TestContext } from "../test-support.ts";
import { camelizeKeys, MAX_NESTING, snakifyKeys } from "./case.ts";
import { DomainError } from "./errors.ts";

/** `depth` arrays inside each other around a 1, or `{"a": …}` objects. */
const nestedArrays = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("key conversion", () => {
  it("converts keys at every level, arrays included, and leaves values alone", () => {
    expect(camelizeKeys({ first_name: "Ann", items: [{ node_id: 1, option_node_ids: [2] }], note: "a_b" })).toEqual({
      firstName: "Ann",
      items: [{ nodeId: 1, optionNodeIds: [2] }],
      note: "a_b",
    });
    expect(snakifyKeys({ basketId: 7, billingInformation: { postalCode: "1000" } })).toEqual({
      basket_id: 7,
      billing_information: { postal_code: "1000" },
    });
  });

  it(`converts ${MAX_NESTING} levels and refuses one more with a 400, not a stack overflow`, () => {
    expect(camelizeKeys(JSON.parse(nestedArrays(MAX_NESTING)))).toEqual(JSON.parse(nestedArrays(MAX_NESTING)));
    for (const deep of [nestedArrays(MAX_NESTING + 1), nestedObjects(MAX_NESTING + 1), nestedArrays(100_000)]) {
      const error = (() => {
        try {
          camelizeKeys(JSON.parse(deep));
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind: "invalid", messages: ["errors.nested_too_deep"] });
    }
  });

  it("keeps built-in property names as plain keys: __proto__ never becomes the prototype", () => {
    // snake_case keeps `__proto__` as it is: an assignment `out["__proto__"] = …` would set the prototype instead.
    const converted = snakifyKeys<Record<string, unknown>>(
      JSON.parse('{"__proto__": {"isSuperuser": true}, "constructor": 1, "toString": 2}'),
    );
    expect(Object.getPrototypeOf(converted)).toBe(Object.prototype);
    expect(converted.is_superuser).toBeUndefined();
    expect(Object.keys(converted)).toEqual(["__proto__", "constructor", "to_string"]);
    expect(Object.keys(camelizeKeys(JSON.parse('{"__proto__": 1, "has_own_property": 2}')) as object)).toEqual([
      "_Proto__",
      "hasOwnProperty",
    ]);
  });
});

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
