// An add's guard compares the basket's `held_version` with the one it read with the lines (docs/decisions/0041):
// every change to the held lines moves it, so an add that read them before another add, a removal or an expiry
// is refused by its guard and reads them again, and the item maximum holds.
import { eq, run, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import { createBuyer, createOnSaleEvent, stockUsed, useTestContext, WIRE_DRIVERS } from "../../test-support.ts";
import { addSelectedNode, findLogin, findOwnedBasket, releaseExpiredHolds, removeSelectedNode } from "./baskets.ts";

describe.each(WIRE_DRIVERS)("the held lines' version (%s)", (driver) => {
  const ctx = useTestContext(driver);

  async function buyerOf(maxItemsPerBasket: number) {
    const sale = await createOnSaleEvent(ctx, { stock: 10 });
    await ctx.database.transaction(function* (tx) {
      yield* run(tx.update(schema.events).set({ maxItemsPerBasket }).where(eq(schema.events.id, sale.event.id)).run());
    });
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    const event = await ctx.database.db.select().from(schema.events).where(eq(schema.events.id, sale.event.id)).get();
    if (!event) throw new Error("no event");
    const basket = () => findOwnedBasket(ctx.database.db, [buyer.loginId], buyer.basketId);
    const add = async (held?: { version: number; nodeIds: number[]; articles: number }) =>
      addSelectedNode(ctx.database, {
        event,
        basket: await basket(),
        login: await findLogin(ctx.database.db, [buyer.loginId], event.id, false),
        held,
        nodeId: sale.article.node.id,
        optionNodeIds: [],
        quantity: 1,
        now: new Date(),
      });
    return { ...sale, event, basket, add };
  }

  it("refuses an add that read the basket before another add, reads it again and keeps the item maximum", async () => {
    const { article, basket, add } = await buyerOf(2);
    const before = { version: (await basket()).heldVersion, nodeIds: [], articles: 0 };
    await add();
    await add();
    // What it read says the basket is empty; it holds 2 of 2 since.
    await expect(add(before)).rejects.toMatchObject({ messages: ["errors.basket_item_limit"] });
    expect(await stockUsed(ctx, article.limit.id)).toBe(2);
  });

  it("moves on every change to the held lines: an add, a removal, an expiry; not on a write to the basket alone", async () => {
    const { event, basket, add } = await buyerOf(5);
    const version = async () => (await basket()).heldVersion;
    const opened = await version();
    const first = await add();
    await add();
    const basketId = (await basket()).id;
    const afterAdds = await version();
    expect(afterAdds).toBeGreaterThan(opened);
    await removeSelectedNode(ctx.database, {
      event,
      basket: await basket(),
      selectedNodeId: first.id,
      now: new Date(),
    });
    const afterRemoval = await version();
    expect(afterRemoval).toBeGreaterThan(afterAdds);
    await ctx.database.transaction(function* (tx) {
      yield* run(tx.update(schema.baskets).set({ language: "fr" }).where(eq(schema.baskets.id, basketId)).run());
    });
    expect(await version()).toBe(afterRemoval);
    const later = new Date(Date.now() + (event.reservationMinutes + 1) * 60_000);
    expect(await releaseExpiredHolds(ctx.database, later, basketId)).toBeGreaterThan(0);
    expect(await version()).toBeGreaterThan(afterRemoval);
  });
});
