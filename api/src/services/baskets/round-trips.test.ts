// The hot writes reach the database in one round trip each while holding its write lock (ADR 0026): over a libSQL
// server every round trip made holding the lock is network time no other replica can write in.
import { createDatabase, type Database, eq, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkOut,
  createOnSaleEvent,
  readyBuyer,
  stockUsed,
  useTestContext,
  WIRE_DRIVERS,
} from "../../test-support.ts";
import { resolvePayment } from "../checkout/payment-resolution.ts";
import { addSelectedNode, findLogin, findOwnedBasket, releaseExpiredHolds, removeSelectedNode } from "./baskets.ts";

describe.each(WIRE_DRIVERS)("round trips holding the write lock (%s)", (driver) => {
  const ctx = useTestContext(driver);
  // A second handle on the same database whose driver is counted.
  let counted: Database;
  let locked = 0;
  beforeAll(() => {
    counted = createDatabase({
      url: ctx.config.databaseUrl,
      driver: ctx.database.driver,
      onRoundTrip: (trip) => {
        if (trip.locked) locked += 1;
      },
    });
  });
  afterAll(async () => counted.close());
  /** How many round trips `write` made holding the write lock. */
  const lockedTrips = async (write: () => Promise<unknown>) => {
    locked = 0;
    await write();
    return locked;
  };

  async function sale() {
    const found = await createOnSaleEvent(ctx, { stock: 10 });
    const event = await counted.db.select().from(schema.events).where(eq(schema.events.id, found.event.id)).get();
    if (!event) throw new Error("no event");
    return { ...found, row: event };
  }

  it("adds to a basket, removes a line and releases expired holds in one each, stock exact", async () => {
    const { row: event, article, moduleId } = await sale();
    const buyer = await readyBuyer(ctx, { event, moduleId, article }, { count: 0, billing: null });
    const login = await findLogin(counted.db, [buyer.loginId], event.id, false);
    const basket = await findOwnedBasket(counted.db, [login.id], buyer.basketId);
    const add = () =>
      addSelectedNode(counted, {
        event,
        basket,
        login,
        nodeId: article.node.id,
        optionNodeIds: [],
        quantity: 2,
        now: new Date(),
      });
    let item: Awaited<ReturnType<typeof add>> | undefined;
    expect(await lockedTrips(async () => (item = await add()))).toBe(1);
    expect(await stockUsed(ctx, article.limit.id)).toBe(2);
    const selectedNodeId = item?.id ?? 0;
    expect(
      await lockedTrips(() => removeSelectedNode(counted, { event, basket, selectedNodeId, now: new Date() })),
    ).toBe(1);
    expect(await stockUsed(ctx, article.limit.id)).toBe(1);
    const later = new Date(Date.now() + (event.reservationMinutes + 1) * 60_000);
    let released = 0;
    expect(await lockedTrips(async () => (released = await releaseExpiredHolds(counted, later, basket.id)))).toBe(1);
    expect(released).toBe(1);
    expect(await stockUsed(ctx, article.limit.id)).toBe(0);
  });

  it("resolves a failed payment, then a paid one, in one each", async () => {
    const { row: event, article, moduleId } = await sale();
    const buyer = await readyBuyer(ctx, { event, moduleId, article });
    const intentOf = async () => {
      const checkout = await checkOut(ctx, buyer);
      expect(checkout.status).toBe(200);
      return checkout.body.payment_intent as { id: number; psp_id: string };
    };
    const resolve = (intent: { id: number; psp_id: string }, outcome: "error" | "success") =>
      resolvePayment(counted, { intentId: intent.id, pspId: intent.psp_id, outcome, now: new Date() });
    const failed = await intentOf();
    let result: Awaited<ReturnType<typeof resolve>> | undefined;
    expect(await lockedTrips(async () => (result = await resolve(failed, "error")))).toBe(1);
    expect(result).toMatchObject({ changed: true, basket: { status: "new" } });
    const paid = await intentOf();
    expect(await lockedTrips(async () => (result = await resolve(paid, "success")))).toBe(1);
    expect(result).toMatchObject({ changed: true, basket: { status: "validated" } });
    expect(await stockUsed(ctx, article.limit.id)).toBe(1);
  });
});
