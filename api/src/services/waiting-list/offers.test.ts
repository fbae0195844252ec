// The waiting list under a rush (issue 31, docs/decisions/0038): stock freed while entries wait goes to them, in
// order, in the write that frees it; none of it to buyers adding at the same moment; lapsed offers roll on in order;
// no unit is offered twice; the counters always equal the rows.
import { and, asc, eq, run, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import {
  createBuyer,
  createOnSaleEvent,
  DRIVERS,
  expectStockCountersMatchRows,
  signedInUser,
  type TestContext,
  useTestContext,
} from "../../test-support.ts";
import { releaseExpiredHolds } from "../baskets/baskets.ts";
import { OFFER_MINUTES, openList } from "./entries.fixtures.ts";
import { offerCode } from "./offer-links.ts";
import { closeEntryStatements, handOfferStatements } from "./offers.ts";
import { endHolds, putInLine } from "./organiser.fixtures.ts";

const entriesOf = (ctx: TestContext, eventId: number) =>
  ctx.database.db
    .select()
    .from(schema.waitingListEntries)
    .where(eq(schema.waitingListEntries.eventId, eventId))
    .orderBy(asc(schema.waitingListEntries.id))
    .all();

const offerMails = (ctx: TestContext) =>
  ctx.database.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.kind, "waiting_list_offer")).all();

const heldLines = (ctx: TestContext, basketId: number) =>
  ctx.database.db
    .select()
    .from(schema.selectedNodes)
    .where(and(eq(schema.selectedNodes.basketId, basketId), eq(schema.selectedNodes.status, "held")))
    .all();

/** A buyer's add of one article: the API's answer (201, or 409 and why). */
const addToBasket = (ctx: TestContext, buyer: { token: string; basketId: number }, nodeId: number) =>
  ctx.call("POST", "/frontend/selected-nodes", {
    token: buyer.token,
    body: { basket_id: buyer.basketId, node_id: nodeId },
  });

const limitOf = (ctx: TestContext, limitId: number) =>
  ctx.database.db.select().from(schema.nodeLimits).where(eq(schema.nodeLimits.id, limitId)).get();

describe.each(DRIVERS)("waiting list offers (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("hands 20 expiring holds to the first 20 of 50 entries in order while 100 buyers add, none to the buyers; lapsed offers roll on in order", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 20 });
    const holders = [];
    for (let i = 0; i < 20; i++) {
      const holder = await createBuyer(ctx, event.id, moduleId);
      expect((await addToBasket(ctx, holder, article.node.id)).status).toBe(201);
      holders.push(holder);
    }
    await openList(ctx, event.id);
    const line = [];
    for (let i = 0; i < 50; i++) line.push(await putInLine(ctx.database, event.id, [article.limit.id]));
    const buyers = [];
    for (let i = 0; i < 100; i++) buyers.push(await createBuyer(ctx, event.id, moduleId));
    await expectStockCountersMatchRows(ctx);

    // The 20 holds run out; the sweep and 100 adds race.
    await endHolds(
      ctx,
      holders.map((holder) => holder.basketId),
    );
    const [released, ...adds] = await Promise.all([
      releaseExpiredHolds(ctx.database, new Date()),
      ...buyers.map((buyer) => addToBasket(ctx, buyer, article.node.id)),
    ]);
    expect(released).toBe(20);
    expect(adds.map((answer) => answer.status)).toEqual(adds.map(() => 409));
    for (const buyer of buyers) expect(await heldLines(ctx, buyer.basketId)).toEqual([]);

    const entries = await entriesOf(ctx, event.id);
    expect(entries.map((entry) => entry.state)).toEqual([...Array(20).fill("offered"), ...Array(30).fill("waiting")]);
    expect(entries.slice(0, 20).map((entry) => entry.offeredQuantity)).toEqual(Array(20).fill(1));
    expect(entries.slice(0, 20).map((entry) => entry.id)).toEqual(line.slice(0, 20).map((entry) => entry.id));
    // One offer mail per offered entry, to its buyer.
    const mails = await offerMails(ctx);
    expect(mails.map((mail) => (mail.payload as { entry_id: number }).entry_id).sort((a, b) => a - b)).toEqual(
      line.slice(0, 20).map((entry) => entry.id),
    );
    expect(await limitOf(ctx, article.limit.id)).toMatchObject({ used: 20, waiting: 30, maximum: 20 });
    await expectStockCountersMatchRows(ctx);

    // A sweep with nothing new to offer changes nothing: no unit is offered twice.
    await releaseExpiredHolds(ctx.database, new Date());
    expect((await offerMails(ctx)).length).toBe(20);

    // The offers lapse: their stock rolls on to the next 20 in line, again none to a buyer.
    const afterOffers = new Date(Date.now() + (OFFER_MINUTES + 1) * 60_000);
    const [, ...late] = await Promise.all([
      releaseExpiredHolds(ctx.database, afterOffers),
      ...buyers.slice(0, 30).map((buyer) => addToBasket(ctx, buyer, article.node.id)),
    ]);
    expect(late.map((answer) => answer.status)).toEqual(late.map(() => 409));
    const rolled = await entriesOf(ctx, event.id);
    expect(rolled.map((entry) => entry.state)).toEqual([
      ...Array(20).fill("expired"),
      ...Array(20).fill("offered"),
      ...Array(10).fill("waiting"),
    ]);
    expect((await offerMails(ctx)).length).toBe(40);
    expect(await limitOf(ctx, article.limit.id)).toMatchObject({ used: 20, waiting: 10 });
    await expectStockCountersMatchRows(ctx);
  });

  it("frees a removed article to the first entry in the removal's own batch; leaving gives the quantity back to buyers once nobody waits", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 1 });
    const holder = await createBuyer(ctx, event.id, moduleId);
    const added = await addToBasket(ctx, holder, article.node.id);
    expect(added.status).toBe(201);
    await openList(ctx, event.id);
    const first = await putInLine(ctx.database, event.id, [article.limit.id]);
    const second = await putInLine(ctx.database, event.id, [article.limit.id]);
    const removed = await ctx.call("DELETE", `/frontend/selected-nodes/${added.body.id}?basket_id=${holder.basketId}`, {
      token: holder.token,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
    const [offered, waiting] = await entriesOf(ctx, event.id);
    expect([offered?.id, offered?.state, waiting?.id, waiting?.state]).toEqual([
      first.id,
      "offered",
      second.id,
      "waiting",
    ]);
    // The buyer who let it go cannot take it back.
    expect((await addToBasket(ctx, holder, article.node.id)).status).toBe(409);
    await expectStockCountersMatchRows(ctx);

    // The first declines: the second is offered in the same batch. The second leaves too: the unit is on sale again.
    await ctx.database.batch(closeEntryStatements(first.id, "left", new Date().toISOString()));
    expect((await entriesOf(ctx, event.id)).map((entry) => entry.state)).toEqual(["left", "offered"]);
    await ctx.database.batch(closeEntryStatements(second.id, "left", new Date().toISOString()));
    expect((await entriesOf(ctx, event.id)).map((entry) => entry.state)).toEqual(["left", "left"]);
    expect(await limitOf(ctx, article.limit.id)).toMatchObject({ used: 0, waiting: 0 });
    expect((await addToBasket(ctx, holder, article.node.id)).status).toBe(201);
    await expectStockCountersMatchRows(ctx);
  });

  it("keeps the line: an entry for 3 is not passed by one for 1 behind it, unless partial offers are allowed", async () => {
    for (const partialOffers of [false, true]) {
      const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 2 });
      const holders = [];
      for (let i = 0; i < 2; i++) {
        const holder = await createBuyer(ctx, event.id, moduleId);
        expect((await addToBasket(ctx, holder, article.node.id)).status).toBe(201);
        holders.push(holder);
      }
      await openList(ctx, event.id, { partialOffers });
      await putInLine(ctx.database, event.id, [article.limit.id], { quantity: 3 });
      await putInLine(ctx.database, event.id, [article.limit.id], { quantity: 1 });
      await endHolds(ctx, [holders[0]?.basketId as number]);
      await releaseExpiredHolds(ctx.database, new Date());
      const entries = await entriesOf(ctx, event.id);
      if (partialOffers)
        expect(entries.map((entry) => [entry.state, entry.offeredQuantity])).toEqual([
          ["offered", 1],
          ["waiting", null],
        ]);
      else
        expect(entries.map((entry) => [entry.state, entry.offeredQuantity])).toEqual([
          ["waiting", null],
          ["waiting", null],
        ]);
      // Nobody on the buy page takes the free unit meanwhile.
      const buyer = await createBuyer(ctx, event.id, moduleId);
      expect((await addToBasket(ctx, buyer, article.node.id)).status).toBe(409);
      await expectStockCountersMatchRows(ctx);
    }
  });

  it("offers a stock the organiser raised in the raise's own write, and only what the raise covers", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 1 });
    const holder = await createBuyer(ctx, event.id, moduleId);
    expect((await addToBasket(ctx, holder, article.node.id)).status).toBe(201);
    await openList(ctx, event.id);
    for (let i = 0; i < 4; i++) await putInLine(ctx.database, event.id, [article.limit.id]);
    // A public event's stock is raised by staff allowed to edit it while on sale.
    const { token: admin } = await signedInUser(ctx, "root", { isSuperuser: true });
    const raised = await ctx.call("PUT", `/node-limits/${article.limit.id}`, { token: admin, body: { maximum: 3 } });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect(raised.body).toMatchObject({ maximum: 3, remaining: 0 });
    expect((await entriesOf(ctx, event.id)).map((entry) => entry.state)).toEqual([
      "offered",
      "offered",
      "waiting",
      "waiting",
    ]);
    // Raised by 2 while 4 waited: buyers still cannot take any.
    const buyer = await createBuyer(ctx, event.id, moduleId);
    expect((await addToBasket(ctx, buyer, article.node.id)).status).toBe(409);
    await expectStockCountersMatchRows(ctx);
    // A stock raised behind the API's back (a script on the database) is offered at the next sweep.
    await ctx.database.transaction(function* (tx) {
      yield* run(
        tx.update(schema.nodeLimits).set({ maximum: 4 }).where(eq(schema.nodeLimits.id, article.limit.id)).run(),
      );
    });
    expect((await addToBasket(ctx, buyer, article.node.id)).status).toBe(409);
    await releaseExpiredHolds(ctx.database, new Date());
    expect((await entriesOf(ctx, event.id)).map((entry) => entry.state)).toEqual([
      "offered",
      "offered",
      "offered",
      "waiting",
    ]);
    await expectStockCountersMatchRows(ctx);
  });

  it("makes no offer on a manual list until the organiser offers by hand, out of line, and only what the stock covers", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 1 });
    const holder = await createBuyer(ctx, event.id, moduleId);
    expect((await addToBasket(ctx, holder, article.node.id)).status).toBe(201);
    await openList(ctx, event.id, { automatic: false });
    const first = await putInLine(ctx.database, event.id, [article.limit.id]);
    const second = await putInLine(ctx.database, event.id, [article.limit.id]);
    const now = new Date().toISOString();
    // No stock free: the hand offer is refused (its statement answers nothing).
    const refused = await ctx.database.batch(handOfferStatements(second.id, now));
    expect(refused.at(-1)).toEqual([]);
    await endHolds(ctx, [holder.basketId]);
    await releaseExpiredHolds(ctx.database, new Date());
    expect((await entriesOf(ctx, event.id)).map((entry) => entry.state)).toEqual(["waiting", "waiting"]);
    expect((await addToBasket(ctx, holder, article.node.id)).status).toBe(409);
    const offered = await ctx.database.batch(handOfferStatements(second.id, now));
    expect(offered.at(-1)?.map((row) => row.id)).toEqual([second.id]);
    expect((await entriesOf(ctx, event.id)).map((entry) => [entry.id, entry.state])).toEqual([
      [first.id, "waiting"],
      [second.id, "offered"],
    ]);
    await expectStockCountersMatchRows(ctx);
  });

  it("keeps preview mode's list apart: testing entries wait on the testing counters", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 1 });
    await openList(ctx, event.id);
    await putInLine(ctx.database, event.id, [article.limit.id], { testing: true });
    // Real buyers are not held back by a testing entry, and it is offered the testing stock at once.
    await releaseExpiredHolds(ctx.database, new Date());
    expect((await entriesOf(ctx, event.id)).map((entry) => [entry.testing, entry.state])).toEqual([[true, "offered"]]);
    const buyer = await createBuyer(ctx, event.id, moduleId);
    expect((await addToBasket(ctx, buyer, article.node.id)).status).toBe(201);
    expect(await limitOf(ctx, article.limit.id)).toMatchObject({ used: 1, testingUsed: 1, waiting: 0 });
    await expectStockCountersMatchRows(ctx);
  });
  it("opens an offer into a basket that holds its ticket to the offer's end: hold-again is refused, the lapse goes to the next", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 1 });
    const holder = await createBuyer(ctx, event.id, moduleId);
    const added = await addToBasket(ctx, holder, article.node.id);
    await openList(ctx, event.id);
    const first = await putInLine(ctx.database, event.id, [article.limit.id], { nodeId: article.node.id });
    const second = await putInLine(ctx.database, event.id, [article.limit.id], { nodeId: article.node.id });
    await ctx.call("DELETE", `/frontend/selected-nodes/${added.body.id}?basket_id=${holder.basketId}`, {
      token: holder.token,
    });
    const [offered] = await entriesOf(ctx, event.id);
    const code = offerCode(ctx.config.secretKey, offered as { id: number; offeredAt: string | null });
    const opened = await ctx.call("POST", `/frontend/waiting-list/offers/${first.id}/open`, { body: { code } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const basketId = opened.body.basket_id as number;
    expect((await heldLines(ctx, basketId)).length).toBe(1);
    await expectStockCountersMatchRows(ctx);
    // The organiser set the offer's time: the buyer cannot keep it longer, and the basket says so (no renewal left,
    // so the ticket office offers no "keep my tickets" button that would be refused).
    const detail = await ctx.call("GET", `/frontend/baskets/${basketId}`, { token: opened.body.access_token });
    expect(detail.body.hold_renewals_left).toBe(0);
    const again = await ctx.call("POST", `/frontend/baskets/${basketId}/hold-again`, {
      token: opened.body.access_token,
      body: {},
    });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      "An offer from the waiting list is held for its own time, set by the organiser: it cannot be extended",
    ]);
    // Its end passes unpaid: the basket's ticket goes to the next in line, in the sweep's batch.
    await endHolds(ctx, [basketId]);
    await releaseExpiredHolds(ctx.database, new Date(Date.now() + (OFFER_MINUTES + 1) * 60_000));
    expect((await entriesOf(ctx, event.id)).map((entry) => [entry.id, entry.state])).toEqual([
      [first.id, "expired"],
      [second.id, "offered"],
    ]);
    expect(await heldLines(ctx, basketId)).toEqual([]);
    await expectStockCountersMatchRows(ctx);
  });
});
