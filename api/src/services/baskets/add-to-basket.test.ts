// "Open or reuse my basket and add" in one call (`POST /frontend/selected-nodes` with `event_id`): the caller's
// newest open basket on the event is reused, else one is opened; never anyone else's.
import { describe, expect, it } from "vitest";
import {
  checkOut,
  createBuyer,
  createOnSaleEvent,
  expectStockCountersMatchRows,
  readyBuyer,
  stockUsed,
  type TestContext,
  useTestContext,
  WIRE_DRIVERS,
} from "../../test-support.ts";

/** A visitor signed in to the event's ticket office, with no basket yet. */
async function signIn(ctx: TestContext, moduleId: number) {
  const login = await ctx.call("POST", "/auth/anonymous-login", { body: { active_module_id: moduleId } });
  expect(login.status, JSON.stringify(login.body)).toBe(201);
  return login.body.access_token as string;
}

const addByEvent = (ctx: TestContext, token: string, eventId: number, nodeId: number, extra = {}) =>
  ctx.call("POST", "/frontend/selected-nodes", { token, body: { event_id: eventId, node_id: nodeId, ...extra } });

const basketsOf = async (ctx: TestContext, token: string, eventId: number) =>
  (await ctx.call("GET", `/frontend/baskets?event_id=${eventId}`, { token })).body as { id: number }[];

describe.each(WIRE_DRIVERS)("adding by event (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("opens the caller's basket on the first add, reuses it on the next, and never another buyer's", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 10, price: 1500 });
    const other = await createBuyer(ctx, event.id, moduleId);
    const token = await signIn(ctx, moduleId);
    expect(await basketsOf(ctx, token, event.id)).toEqual([]);

    const first = await addByEvent(ctx, token, event.id, article.node.id);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ node_id: article.node.id, price: 1500 });
    const basketId = first.body.basket_id as number;
    expect(basketId).not.toBe(other.basketId);
    const again = await addByEvent(ctx, token, event.id, article.node.id, { quantity: 2 });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.basket_id).toBe(basketId);
    expect((await basketsOf(ctx, token, event.id)).map((basket) => basket.id)).toEqual([basketId]);
    const mine = await ctx.call("GET", `/frontend/baskets/${basketId}`, { token });
    expect(mine.body.items).toHaveLength(3);

    // The other buyer's add by event goes into their own open basket, not the caller's newer one.
    const theirs = await addByEvent(ctx, other.token, event.id, article.node.id);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    expect(theirs.body.basket_id).toBe(other.basketId);
    // Naming the caller's basket is still refused to them, and changes nothing.
    const refused = await ctx.call("POST", "/frontend/selected-nodes", {
      token: other.token,
      body: { basket_id: basketId, node_id: article.node.id },
    });
    expect(refused.status).toBe(404);
    expect((await ctx.call("GET", `/frontend/baskets/${basketId}`, { token })).body.items).toHaveLength(3);
    expect(await stockUsed(ctx, article.limit.id)).toBe(4);
    await expectStockCountersMatchRows(ctx);
  });

  it("reuses the basket being paid as the ticket office does, and refuses the add with 409", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 10 });
    const buyer = await readyBuyer(ctx, sale);
    expect((await checkOut(ctx, buyer)).status).toBe(200);
    const refused = await addByEvent(ctx, buyer.token, sale.event.id, sale.article.node.id);
    expect(refused.status).toBe(409);
    expect((await basketsOf(ctx, buyer.token, sale.event.id)).map((basket) => basket.id)).toEqual([buyer.basketId]);
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(1);
  });

  it("refuses a basket and an event together, an unknown event, and an event or mode the caller has no login to", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 10 });
    const elsewhere = await createOnSaleEvent(ctx, { stock: 10 });
    const buyer = await createBuyer(ctx, event.id, moduleId);
    const both = await ctx.call("POST", "/frontend/selected-nodes", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, event_id: event.id, node_id: article.node.id },
    });
    expect(both.status).toBe(400);
    const neither = await ctx.call("POST", "/frontend/selected-nodes", {
      token: buyer.token,
      body: { node_id: article.node.id },
    });
    expect(neither).toMatchObject({ status: 400, body: { field_errors: { basket_id: "Required" } } });
    expect((await addByEvent(ctx, buyer.token, 999_999_999, article.node.id)).status).toBe(404);
    expect((await addByEvent(ctx, buyer.token, elsewhere.event.id, elsewhere.article.node.id)).status).toBe(404);
    expect((await addByEvent(ctx, buyer.token, event.id, article.node.id, { testing: true })).status).toBe(404);
    expect(await basketsOf(ctx, buyer.token, elsewhere.event.id)).toEqual([]);
    expect(await stockUsed(ctx, article.limit.id)).toBe(0);
    expect(await stockUsed(ctx, elsewhere.article.limit.id)).toBe(0);
  });
});
