import { eq, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import {
  createBuyer,
  createOnSaleEvent,
  eventResourceCreator,
  expectStockCountersMatchRows,
  loginAs,
  readyBuyer,
  stockUsed,
  type TestContext,
  useTestContext,
  WIRE_DRIVERS,
  writeEventRow,
} from "../../test-support.ts";
import { releaseExpiredHolds } from "./baskets.ts";

type Buyer = { token: string; basketId: number };

/** Moves the basket's reservation time into the past, as if the buyer had gone away. */
async function letHoldRunOut(ctx: TestContext, basketId: number) {
  await ctx.database.db
    .update(schema.baskets)
    .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
    .where(eq(schema.baskets.id, basketId))
    .run();
}

const statusesOf = async (ctx: TestContext, basketId: number) =>
  (
    await ctx.database.db
      .select({ status: schema.selectedNodes.status })
      .from(schema.selectedNodes)
      .where(eq(schema.selectedNodes.basketId, basketId))
      .all()
  ).map((row) => row.status);

describe.each(WIRE_DRIVERS)("expired holds (%s)", (driver) => {
  const ctx = useTestContext(driver);
  const read = (buyer: Buyer) => ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token });
  const holdAgain = (buyer: Buyer) =>
    ctx.call("POST", `/frontend/baskets/${buyer.basketId}/hold-again`, { token: buyer.token });

  it("expires a basket read after its reservation time at once, marking its lines expired, not released", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 3 });
    const buyer = await readyBuyer(ctx, sale, { count: 2 });
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(2);
    await letHoldRunOut(ctx, buyer.basketId);
    const basket = await read(buyer);
    expect(basket.status).toBe(200);
    expect(basket.body.items).toEqual([]);
    expect(basket.body.expired_items.map((item: { title: string }) => item.title)).toEqual(["Entry", "Entry"]);
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(0);
    expect(await statusesOf(ctx, buyer.basketId)).toEqual(["expired", "expired"]);
    // The sweep finds nothing more to give back: each line goes back once.
    expect(await releaseExpiredHolds(ctx.database, new Date())).toBe(0);
    await expectStockCountersMatchRows(ctx);
  });

  it("does not order a basket past its reservation time", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 3 });
    const buyer = await readyBuyer(ctx, sale);
    await letHoldRunOut(ctx, buyer.basketId);
    const ordered = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
      token: buyer.token,
      body: { payment_method: "online", terms_accepted: true },
    });
    expect(ordered.status).toBe(400);
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(0);
  });

  it("holds the expired articles again with their answers and the billing information, for a new reservation time", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 5, status: "draft" });
    const staff = await loginAs(ctx, sale.email, sale.password);
    const create = eventResourceCreator(ctx, staff, sale.event.id);
    const group = await create("node-extra-info-groups", {
      name: "Attendee",
      is_required: true,
      node_configuration_ids: [sale.article.configuration.id],
    });
    const badge = await create("node-extra-infos", { group_id: group, name: "Name on badge", type: "text" });
    await writeEventRow(ctx, sale.event.id, { status: "public", moderationStatus: "validated" });
    const buyer = await readyBuyer(ctx, sale, { count: 2 });
    const forms = await ctx.call("GET", `/frontend/baskets/${buyer.basketId}/forms`, { token: buyer.token });
    const itemIds = forms.body.map((entry: { item_id: number }) => entry.item_id) as number[];
    for (const [index, itemId] of itemIds.entries()) {
      const answered = await ctx.call("PUT", `/frontend/selected-nodes/${itemId}/extra-infos`, {
        token: buyer.token,
        body: { answers: [{ extra_info_id: badge, value: `Guest ${index}` }] },
      });
      expect(answered.status).toBe(200);
    }
    await letHoldRunOut(ctx, buyer.basketId);
    expect((await read(buyer)).body.items).toEqual([]);

    const again = await holdAgain(buyer);
    expect(again.status).toBe(200);
    expect(again.body.restored.map((item: { id: number }) => item.id)).toEqual(itemIds);
    expect(again.body.unavailable).toEqual([]);
    expect(again.body.basket.items.map((item: { id: number }) => item.id)).toEqual(itemIds);
    expect(again.body.basket.expired_items).toEqual([]);
    expect(again.body.basket.billing_information.email).toBe("ada@example.org");
    expect(Date.parse(again.body.basket.expires_at)).toBeGreaterThan(Date.now());
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(2);
    const kept = await ctx.call("GET", `/frontend/baskets/${buyer.basketId}/forms`, { token: buyer.token });
    expect(
      kept.body.map(
        (entry: { groups: { extra_infos: { value: string }[] }[] }) => entry.groups[0]?.extra_infos[0]?.value,
      ),
    ).toEqual(["Guest 0", "Guest 1"]);
    // Nothing left to put back: a second call changes nothing.
    const twice = await holdAgain(buyer);
    expect(twice.body.restored).toEqual([]);
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(2);
    await expectStockCountersMatchRows(ctx);
  });

  it("puts back what the stock still has, article by article, and releases the rest for good", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 3 });
    const buyer = await readyBuyer(ctx, sale, { count: 2 });
    await letHoldRunOut(ctx, buyer.basketId);
    await read(buyer);
    // Meanwhile someone else takes two of the three.
    await readyBuyer(ctx, sale, { count: 2 });
    const again = await holdAgain(buyer);
    expect(again.status).toBe(200);
    expect(again.body.restored).toHaveLength(1);
    expect(again.body.unavailable.map((item: { title: string }) => item.title)).toEqual(["Entry"]);
    expect(again.body.basket.items).toHaveLength(1);
    expect(again.body.basket.expired_items).toEqual([]);
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(3);
    expect((await statusesOf(ctx, buyer.basketId)).sort()).toEqual(["held", "released"]);
    await expectStockCountersMatchRows(ctx);
  });

  it("puts nothing back when the stock is gone, and the stocks table counts expired lines like released ones", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 1 });
    const buyer = await readyBuyer(ctx, sale);
    await letHoldRunOut(ctx, buyer.basketId);
    await releaseExpiredHolds(ctx.database, new Date());
    await readyBuyer(ctx, sale);
    const staff = await loginAs(ctx, sale.email, sale.password);
    const stocks = await ctx.call("GET", `/events/${sale.event.id}/stocks`, { token: staff });
    // One sold line (the other buyer's), the expired one not counted.
    expect(stocks.body.rows[0]).toMatchObject({ total: 1, new: 1, reserved: 1, remaining: 0 });
    const again = await holdAgain(buyer);
    expect(again.body.restored).toEqual([]);
    expect(again.body.unavailable).toHaveLength(1);
    expect(again.body.basket.items).toEqual([]);
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(1);
    await expectStockCountersMatchRows(ctx);
  });

  it("answers 404 for another buyer's basket and leaves it as it was", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 3 });
    const owner = await readyBuyer(ctx, sale);
    const stranger = await createBuyer(ctx, sale.event.id, sale.moduleId);
    await letHoldRunOut(ctx, owner.basketId);
    const refused = await ctx.call("POST", `/frontend/baskets/${owner.basketId}/hold-again`, {
      token: stranger.token,
    });
    expect(refused.status).toBe(404);
    expect(await statusesOf(ctx, owner.basketId)).toEqual(["held"]);
    expect((await ctx.call("GET", `/frontend/baskets/${owner.basketId}`, { token: stranger.token })).status).toBe(404);
  });
});
