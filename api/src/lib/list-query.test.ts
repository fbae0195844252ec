import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../services/accounts/sessions.ts";
import { createOnSaleEvent, createTestContext, loginAs, type TestContext } from "../test-support.ts";

const PASSWORD = "correct-horse-battery-1!";
const CATALOGUE_LISTS = [
  "node-configurations",
  "node-cart-configurations",
  "nodes",
  "node-limits",
  "node-price-rules",
  "promotion-codes",
  "conditions",
  "statements",
  "node-tags",
  "node-accesses",
  "node-availabilities",
  "node-extra-info-groups",
  "node-extra-infos",
  "points-of-sale",
];
/** Every ra-data-simple-rest list of the API. */
const LISTS = ["events", "baskets", "units", "memberships", ...CATALOGUE_LISTS];
const BUILT_IN_NAMES = ["constructor", "__proto__", "toString", "to_string", "hasOwnProperty", "valueOf", "length"];
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

describe("list queries", () => {
  let ctx: TestContext;
  let root: string;
  let eventId: number;
  beforeAll(async () => {
    ctx = await createTestContext();
    await createUser(ctx.database, { email: "root@example.org", password: PASSWORD, isSuperuser: true });
    root = await loginAs(ctx, "root@example.org", PASSWORD);
    eventId = (await createOnSaleEvent(ctx, { stock: 5 })).event.id;
  });
  afterAll(async () => ctx.close());

  it("refuses to sort any list by a built-in property name, naming the fields it can sort by", async () => {
    for (const list of LISTS)
      for (const name of BUILT_IN_NAMES) {
        const response = await ctx.call("GET", `/${list}?sort=${q([name, "ASC"])}`, { token: root });
        expect(response.status, `${list} sorted by ${name}`).toBe(400);
        expect(response.body.errors[0]).toMatch(
          new RegExp(`^The list cannot be sorted by ${name}; sort by one of: id`),
        );
      }
  });

  it("sorts by the fields it names, both ways", async () => {
    for (const list of LISTS)
      for (const order of ["ASC", "DESC"])
        expect((await ctx.call("GET", `/${list}?sort=${q(["id", order])}`, { token: root })).status, list).toBe(200);
    const nodes = await ctx.call("GET", `/nodes?sort=${q(["parent_id", "DESC"])}&filter=${q({ event_id: eventId })}`, {
      token: root,
    });
    expect(nodes.body.map((n: { parent_id: number | null }) => n.parent_id)).toEqual([
      ...nodes.body.map((n: { parent_id: number | null }) => n.parent_id).filter((p: number | null) => p !== null),
      null,
    ]);
  });

  it("reads id filters as ids, in JSON or plain query keys, and refuses anything else with a 400", async () => {
    const events = await ctx.call("GET", `/events?filter=${q({ id: [eventId, 999] })}`, { token: root });
    expect(events.body.map((e: { id: number }) => e.id)).toEqual([eventId]);
    expect((await ctx.call("GET", `/events?id=${eventId}`, { token: root })).body).toHaveLength(1);
    expect((await ctx.call("GET", `/nodes?event_id=${eventId}&parent_id=null`, { token: root })).body).toHaveLength(1);
    for (const bad of [true, "0x1", [1, "x"], { id: 1 }, 1.5, -3, [[1]], "1e3"])
      for (const list of ["events", "nodes", "baskets", "units", "memberships"]) {
        const response = await ctx.call("GET", `/${list}?filter=${q({ id: bad })}`, { token: root });
        expect(response, `${list} filtered by id ${JSON.stringify(bad)}`).toMatchObject({
          status: 400,
          body: { errors: ["The id filter takes an id or a list of ids (whole numbers from 1)"] },
        });
      }
    expect(await ctx.call("GET", `/nodes?event_id=0x${eventId}`, { token: root })).toMatchObject({ status: 400 });
  });

  it("ignores filter keys that name built-ins instead of reading the prototype", async () => {
    for (const name of BUILT_IN_NAMES)
      expect((await ctx.call("GET", `/events?filter=${q({ [name]: 1 })}`, { token: root })).status, name).toBe(200);
  });
});
