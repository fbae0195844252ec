// Bounded hold renewals (docs/decisions/0036, issue 30: hold-again on a live basket moved its expiry on, again and
// again): an add no longer renews a live hold; hold-again renews it and counts, up to the event's max_hold_renewals;
// an add to a basket whose hold ran out starts a new hold, and what it held comes back only within the caps.
import { eq, run, schema } from "@ticketing/db";
import { DEFAULT_MAX_HOLD_RENEWALS } from "@ticketing/shared/constants";
import { describe, expect, it } from "vitest";
import { createBuyer, createOnSaleEvent, stockUsed, useTestContext, WIRE_DRIVERS } from "../../test-support.ts";
import { addSelectedNode, findLogin, findOwnedBasket } from "./baskets.ts";
import { holdBuyerBasketAgain } from "./buyer-baskets.ts";

const minutes = (at: Date, n: number) => new Date(at.getTime() + n * 60_000);

describe.each(WIRE_DRIVERS)("hold renewals (%s)", (driver) => {
  const ctx = useTestContext(driver);

  /** A buyer of an event on sale (`values` set on the event), and how to add to their basket at a given time. */
  async function buyerOf(values: Partial<typeof schema.events.$inferInsert> = {}) {
    const sale = await createOnSaleEvent(ctx, { stock: 10 });
    await ctx.database.transaction(function* (tx) {
      yield* run(tx.update(schema.events).set(values).where(eq(schema.events.id, sale.event.id)).run());
    });
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    const event = await ctx.database.db.select().from(schema.events).where(eq(schema.events.id, sale.event.id)).get();
    if (!event) throw new Error("no event");
    const basket = () => findOwnedBasket(ctx.database.db, [buyer.loginId], buyer.basketId);
    const add = async (quantity: number, now: Date) =>
      addSelectedNode(ctx.database, {
        event,
        basket: await basket(),
        login: await findLogin(ctx.database.db, [buyer.loginId], event.id, false),
        nodeId: sale.article.node.id,
        optionNodeIds: [],
        quantity,
        now,
      });
    const holdAgain = (now: Date) =>
      holdBuyerBasketAgain(ctx.database, { loginIds: [buyer.loginId], basketId: buyer.basketId, now });
    return { ...sale, event, buyer, basket, add, holdAgain };
  }

  it("keeps a live hold's expiry on an add, renews it on hold-again, counts, and refuses past the event's bound", async () => {
    const { event, basket, add, holdAgain } = await buyerOf({ maxHoldRenewals: 2 });
    const opened = await basket();
    const live = minutes(new Date(opened.expiresAt), -1);
    await add(2, live);
    expect((await basket()).expiresAt).toBe(opened.expiresAt);

    const first = await holdAgain(live);
    expect(first.basket).toMatchObject({ holdRenewals: 1, holdRenewalsLeft: 1 });
    expect(first.basket.expiresAt).toBe(minutes(live, event.reservationMinutes).toISOString());
    expect(first.basket.items).toHaveLength(2);
    const second = await holdAgain(minutes(live, 10));
    expect(second.basket).toMatchObject({ holdRenewals: 2, holdRenewalsLeft: 0 });
    await expect(holdAgain(minutes(live, 20))).rejects.toMatchObject({
      messages: ["errors.hold_renewals_used"],
      values: { max: 2 },
    });
    expect((await basket()).expiresAt).toBe(second.basket.expiresAt);
  });

  it("starts a new hold on an add after the hold ran out, and holds the expired article again only within the caps", async () => {
    const { event, article, basket, add, holdAgain } = await buyerOf({ maxTicketsPerBuyer: 2 });
    const opened = await basket();
    await add(1, minutes(new Date(opened.expiresAt), -5));
    const later = minutes(new Date(opened.expiresAt), 1);
    await add(2, later);
    const renewed = await basket();
    expect(renewed.expiresAt).toBe(minutes(later, event.reservationMinutes).toISOString());
    expect(await stockUsed(ctx, article.limit.id)).toBe(2);

    // The expired article would make three: the cap of two keeps it out; the renewal still counts.
    const outcome = await holdAgain(later);
    expect(outcome.restored).toEqual([]);
    expect(outcome.unavailable).toHaveLength(1);
    expect(outcome.basket).toMatchObject({ holdRenewals: 1, holdRenewalsLeft: DEFAULT_MAX_HOLD_RENEWALS - 1 });
    expect(await stockUsed(ctx, article.limit.id)).toBe(2);
  });

  it("holds an expired article again when the caps allow it", async () => {
    const { article, basket, add, holdAgain } = await buyerOf({ maxTicketsPerBuyer: 2 });
    const opened = await basket();
    await add(2, minutes(new Date(opened.expiresAt), -5));
    const outcome = await holdAgain(minutes(new Date(opened.expiresAt), 1));
    expect(outcome.restored).toHaveLength(2);
    expect(await stockUsed(ctx, article.limit.id)).toBe(2);
  });
});
