import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { camelizeKeys, MAX_NESTING, NestingTooDeep, snakifyKeys, toCamel, toSnake, toSnakeQuery } from "./case.ts";

/** `depth` arrays inside each other around a 1, or `{"a": …}` objects. */
const nestedArrays = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("wire case conversion", () => {
  it("converts keys at every level, arrays included, and leaves values alone", () => {
    const wire = {
      basket_id: 7,
      items: [{ node_id: 2, title: "day_pass", option_node_ids: [3] }],
      billing_information: { postal_code: "1000" },
      note: null,
    };
    const camel = {
      basketId: 7,
      items: [{ nodeId: 2, title: "day_pass", optionNodeIds: [3] }],
      billingInformation: { postalCode: "1000" },
      note: null,
    };
    expect(camelizeKeys(wire)).toEqual(camel);
    expect(snakifyKeys(camel)).toEqual(wire);
  });

  it("keeps a digit segment's underscore, so extra_info_12 comes back as extra_info_12", () => {
    expect(toCamel("extra_info_12")).toBe("extraInfo_12");
    expect(toSnake(toCamel("extra_info_12"))).toBe("extra_info_12");
    expect(snakifyKeys(camelizeKeys({ field_errors: { extra_info_12: "x", address_2: "y" } }))).toEqual({
      field_errors: { extra_info_12: "x", address_2: "y" },
    });
  });

  it("brings every snake_case key back from a round trip", () => {
    const segment = fc.stringMatching(/^[a-z0-9]{1,6}$/);
    const snakeKey = fc
      .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/), fc.array(segment, { maxLength: 4 }))
      .map(([head, rest]) => [head, ...rest].join("_"));
    fc.assert(fc.property(snakeKey, (key) => toSnake(toCamel(key)) === key));
  });

  it("leaves undefined values out, as JSON would", () => {
    expect(snakifyKeys({ eventId: 1, parentId: undefined })).toEqual({ event_id: 1 });
  });

  it("writes query arrays as repeated keys", () => {
    expect(toSnakeQuery({ eventId: 1, testing: false, id: [1, 2], basketId: undefined }).toString()).toBe(
      "event_id=1&testing=false&id=1&id=2",
    );
  });

  it(`converts ${MAX_NESTING} levels and refuses one more, not a stack overflow`, () => {
    expect(camelizeKeys(JSON.parse(nestedArrays(MAX_NESTING)))).toEqual(JSON.parse(nestedArrays(MAX_NESTING)));
    for (const deep of [nestedArrays(MAX_NESTING + 1), nestedObjects(MAX_NESTING + 1), nestedArrays(100_000)])
      expect(() => camelizeKeys(JSON.parse(deep))).toThrow(NestingTooDeep);
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
