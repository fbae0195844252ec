// Basket actions on an event whose waiting room is on need the buyer's turn (docs/decisions/0037): opening a basket,
// adding (by basket or by event) and holding again are refused without one, so a script cannot skip the room by
// calling the API; an ended room, and previews, need none.
import { eq, run, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import {
  createBuyer,
  createOnSaleEvent,
  DRIVERS,
  stockUsed,
  type TestContext,
  useTestContext,
} from "../../test-support.ts";

const TURN_REQUIRED = "It is not your turn yet: wait in the queue for this event";

async function openRoom(ctx: TestContext, eventId: number) {
  await ctx.database.transaction(function* (tx) {
    yield* run(
      tx
        .insert(schema.waitingRooms)
        .values({ eventId, opensAt: "2099-01-01T00:00:00.000Z", ratePerMinute: 10, admissionMinutes: 10 })
        .run(),
    );
  });
}

describe.each(DRIVERS)("basket actions in a waiting room (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("refuses opening, adding and holding again without a turn, and lets them through once the room ended", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 10 });
    const buyer = await createBuyer(ctx, event.id, moduleId);
    await openRoom(ctx, event.id);
    const { token, basketId } = buyer;
    const refused = [
      await ctx.call("POST", "/frontend/baskets", { token, body: { event_id: event.id } }),
      await ctx.call("POST", "/frontend/selected-nodes", {
        token,
        body: { basket_id: basketId, node_id: article.node.id },
      }),
      await ctx.call("POST", "/frontend/selected-nodes", {
        token,
        body: { event_id: event.id, node_id: article.node.id },
      }),
      await ctx.call("POST", `/frontend/baskets/${basketId}/hold-again`, { token }),
    ];
    for (const answer of refused) expect(answer).toMatchObject({ status: 409, body: { errors: [TURN_REQUIRED] } });
    expect(await stockUsed(ctx, article.limit.id)).toBe(0);

    await ctx.database.transaction(function* (tx) {
      yield* run(
        tx.update(schema.waitingRooms).set({ status: "ended" }).where(eq(schema.waitingRooms.eventId, event.id)).run(),
      );
    });
    const added = await ctx.call("POST", "/frontend/selected-nodes", {
      token,
      body: { basket_id: basketId, node_id: article.node.id },
    });
    expect(added.status).toBe(201);
    expect(await stockUsed(ctx, article.limit.id)).toBe(1);
  });
});
