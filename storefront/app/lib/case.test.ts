import { describe, expect, it } from "vitest";
import { toCamel, toSnake, toSnakeQuery } from "./case";

describe("wire case conversion", () => {
  it("renames nested keys both ways and leaves values alone", () => {
    const wire = {
      basket_id: 7,
      items: [{ node_id: 2, title: "day_pass", option_node_ids: [3] }],
      billing_information: null,
    };
    const camel = {
      basketId: 7,
      items: [{ nodeId: 2, title: "day_pass", optionNodeIds: [3] }],
      billingInformation: null,
    };
    expect(toCamel(wire)).toEqual(camel);
    expect(toSnake(camel)).toEqual(wire);
  });

  it("drops undefined values from bodies", () => {
    expect(toSnake({ eventId: 1, parentId: undefined })).toEqual({ event_id: 1 });
  });

  it("writes query arrays as repeated keys", () => {
    expect(toSnakeQuery({ eventId: 1, testing: false, id: [1, 2], basketId: undefined }).toString()).toBe(
      "event_id=1&testing=false&id=1&id=2",
    );
  });
});
