// The visitor's baskets as the ticket office reads them (issue 15: prepared queries, one read for many baskets):
// each basket gets its own lines, billing and payments, the filters hold, and nobody reads another's basket.
import { eq, inArray, run, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import {
  addToBasket,
  BILLING,
  checkOut,
  createBuyer,
  createOnSaleEvent,
  DRIVERS,
  readyBuyer,
  useTestContext,
} from "../../test-support.ts";

describe.each(DRIVERS)("the buyer's baskets (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("lists each basket with its own lines, billing and total, newest first, filtered by event and testing", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 20, price: 1000 });
    const other = await createOnSaleEvent(ctx, { stock: 20 });
    const first = await readyBuyer(ctx, sale, { count: 2 });
    // The first basket paid (a login has one open basket per event), then a second basket of the same login: one
    // article held, one whose reservation ran out.
    await ctx.database.transaction(function* (tx) {
      yield* run(
        tx.update(schema.baskets).set({ status: "validated" }).where(eq(schema.baskets.id, first.basketId)).run(),
      );
    });
    const opened = await ctx.call("POST", "/frontend/baskets", {
      token: first.token,
      body: { event_id: sale.event.id },
    });
    expect(opened.status).toBe(201);
    const second = { token: first.token, basketId: opened.body.id as number };
    await addToBasket(ctx, second, sale.article.node.id);
    await addToBasket(ctx, second, sale.article.node.id);
    const stranger = await readyBuyer(ctx, sale, { count: 3 });
    const lines = await ctx.database.db
      .select({ id: schema.selectedNodes.id })
      .from(schema.selectedNodes)
      .where(eq(schema.selectedNodes.basketId, second.basketId))
      .all();
    const expiredId = lines[0]?.id as number;
    await ctx.database.transaction(function* (tx) {
      yield* run(
        tx
          .update(schema.selectedNodes)
          .set({ status: "expired" })
          .where(inArray(schema.selectedNodes.id, [expiredId]))
          .run(),
      );
    });

    const list = await ctx.call("GET", `/frontend/baskets?event_id=${sale.event.id}`, { token: first.token });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.map((b: { id: number }) => b.id)).toEqual([second.basketId, first.basketId]);
    expect(list.body[0]).toMatchObject({ total: 1000, registrations_count: 1, billing_information: null });
    expect(list.body[1]).toMatchObject({
      total: 2000,
      registrations_count: 2,
      billing_information: { email: BILLING.email },
    });
    const strangers = await ctx.call("GET", "/frontend/baskets", { token: stranger.token });
    expect(strangers.body.map((b: { id: number }) => b.id)).toEqual([stranger.basketId]);
    expect(strangers.body[0]).toMatchObject({ total: 3000, registrations_count: 3 });
    for (const [query, ids] of [
      [`event_id=${other.event.id}`, []],
      [`event_id=${sale.event.id}&testing=true`, []],
      [`event_id=${sale.event.id}&testing=false`, [second.basketId, first.basketId]],
      ["testing=false", [second.basketId, first.basketId]],
    ] as const) {
      const filtered = await ctx.call("GET", `/frontend/baskets?${query}`, { token: first.token });
      expect(
        filtered.body.map((b: { id: number }) => b.id),
        query,
      ).toEqual(ids);
    }

    const detail = await ctx.call("GET", `/frontend/baskets/${second.basketId}`, { token: first.token });
    expect(detail.status).toBe(200);
    expect(detail.body.items.map((i: { id: number }) => i.id)).toEqual([lines[1]?.id]);
    expect(detail.body.expired_items.map((i: { id: number }) => i.id)).toEqual([expiredId]);
    expect(detail.body).toMatchObject({ total: 1000, payment_intents: [], promotion_codes: [] });
    expect((await ctx.call("GET", `/frontend/baskets/${second.basketId}`, { token: stranger.token })).status).toBe(404);
  });

  it("shows a basket's own payments, and none of another basket's", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 20 });
    const paying = await readyBuyer(ctx, sale);
    const waiting = await readyBuyer(ctx, sale);
    expect((await checkOut(ctx, paying)).status).toBe(200);

    const paid = await ctx.call("GET", `/frontend/baskets/${paying.basketId}`, { token: paying.token });
    expect(paid.body.payment_intents).toHaveLength(1);
    expect(paid.body.payment_intents[0]).toMatchObject({ is_ongoing: true });
    const other = await ctx.call("GET", `/frontend/baskets/${waiting.basketId}`, { token: waiting.token });
    expect(other.body.payment_intents).toEqual([]);
    const empty = await createBuyer(ctx, sale.event.id, sale.moduleId);
    const none = await ctx.call("GET", `/frontend/baskets/${empty.basketId}`, { token: empty.token });
    expect(none.body).toMatchObject({ items: [], expired_items: [], total: 0, billing_information: null });
  });
});
