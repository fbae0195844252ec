// The add reads the basket's held lines with the basket (add-to-basket.ts, one read): when the basket's hold has run
// out, the add gives its lines back first, and what it counts is the basket after that, not the lines read before.
import { eq, run, schema } from "@ticketing/db";
import { SelectedNodeAdd } from "@ticketing/shared/schemas/frontend";
import { describe, expect, it } from "vitest";
import { createBuyer, createOnSaleEvent, stockUsed, useTestContext, WIRE_DRIVERS } from "../../test-support.ts";
import { addBasketItem } from "./add-to-basket.ts";

describe.each(WIRE_DRIVERS)("an add to a basket whose hold ran out (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("counts the basket's lines once its expired ones are given back: a full basket takes a new article", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 10 });
    await ctx.database.transaction(function* (tx) {
      yield* run(
        tx.update(schema.events).set({ maxItemsPerBasket: 1 }).where(eq(schema.events.id, sale.event.id)).run(),
      );
    });
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    const add = (now: Date) =>
      addBasketItem(ctx.database, {
        loginIds: [buyer.loginId],
        body: SelectedNodeAdd.parse({ basketId: buyer.basketId, nodeId: sale.article.node.id }),
        now,
      });
    const now = new Date();
    await add(now);
    await expect(add(now)).rejects.toMatchObject({ messages: ["errors.basket_item_limit"] });
    const [basket] = await ctx.database.db.select().from(schema.baskets).where(eq(schema.baskets.id, buyer.basketId));
    const later = new Date(new Date(basket?.expiresAt ?? now).getTime() + 60_000);
    const added = await add(later);
    expect(added.basketId).toBe(buyer.basketId);
    // The expired line's unit came back, the new line took one.
    expect(await stockUsed(ctx, sale.article.limit.id)).toBe(1);
  });
});
