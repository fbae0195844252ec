import { describe, expect, it } from "vitest";
import { z } from "zod";
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
