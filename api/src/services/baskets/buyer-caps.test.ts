// Caps per buyer (docs/decisions/0036, issue 30): the hoarding reproduction is refused at the cap; the event's cap
// and an article's count every basket of the buyer that holds or sold, and two adds at once cannot pass them.
import { and, eq, run, schema } from "@ticketing/db";
import { sign } from "hono/jwt";
import { describe, expect, it } from "vitest";
import {
  addToBasket,
  createBuyer,
  createOnSaleEvent,
  expectStockCountersMatchRows,
  nextBuyerAddress,
  stockUsed,
  type TestContext,
  useTestContext,
  WIRE_DRIVERS,
} from "../../test-support.ts";
import { setAccessMethods } from "../buyers/logins.ts";
import { addArticle } from "../catalogue/catalogue.ts";

/** An event on sale with a cap per buyer (`cap`), 500 articles allowed per basket and a stock of 1,000. */
async function cappedSale(ctx: TestContext, cap: number | null) {
  const sale = await createOnSaleEvent(ctx, { stock: 1_000 });
  await setEvent(ctx, sale.event.id, { maxTicketsPerBuyer: cap, maxItemsPerBasket: 500 });
  return sale;
}

const setEvent = (ctx: TestContext, eventId: number, values: Partial<typeof schema.events.$inferInsert>) =>
  ctx.database.transaction(function* (tx) {
    yield* run(tx.update(schema.events).set(values).where(eq(schema.events.id, eventId)).run());
  });

const setBasketStatus = (ctx: TestContext, basketId: number, status: "validated" | "new") =>
  ctx.database.transaction(function* (tx) {
    yield* run(tx.update(schema.baskets).set({ status }).where(eq(schema.baskets.id, basketId)).run());
  });

/** A sign-in by a third party's token naming `email`, from a fresh client (no token of its own). */
async function signInByEmail(ctx: TestContext, eventId: number, moduleId: number, email: string) {
  await ctx.database.transaction(function* (tx) {
    yield* setAccessMethods(tx, eventId, ["anonymous", "third_party"]);
  });
  const method = await ctx.database.db
    .select()
    .from(schema.eventAccessMethods)
    .where(and(eq(schema.eventAccessMethods.eventId, eventId), eq(schema.eventAccessMethods.method, "third_party")))
    .get();
  const exp = Math.floor(Date.now() / 1000) + 600;
  const token = await sign({ email, exp }, method?.secretKey as string, "HS256");
  const login = await ctx.call("POST", "/auth/third-party-login", { body: { active_module_id: moduleId, token } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { token: login.body.access_token as string, loginId: login.body.login.id as number };
}

const add = (ctx: TestContext, token: string, basketId: number, nodeId: number, quantity: number) =>
  ctx.call("POST", "/frontend/selected-nodes", { token, body: { basket_id: basketId, node_id: nodeId, quantity } });

describe.each(WIRE_DRIVERS)("caps per buyer (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("refuses the issue's hoarding: one guest login, two basket opens, 500 asked on each, ends at most at the cap", async () => {
    const { event, article, moduleId } = await cappedSale(ctx, 4);
    const login = await ctx.call("POST", "/auth/anonymous-login", {
      body: { active_module_id: moduleId },
      headers: { "x-real-ip": nextBuyerAddress() },
    });
    const token = login.body.access_token as string;
    const opened = [];
    for (let i = 0; i < 2; i++)
      opened.push(await ctx.call("POST", "/frontend/baskets", { token, body: { event_id: event.id } }));
    // One open basket per login and event: the second open answers the first.
    expect(opened.map((answer) => answer.status)).toEqual([201, 201]);
    expect(opened[1]?.body.id).toBe(opened[0]?.body.id);
    for (const basket of opened) {
      const refused = await add(ctx, token, basket.body.id, article.node.id, 500);
      expect(refused.status).toBe(409);
      expect(refused.body.errors).toEqual(["You can have at most 4 tickets for this event: you can add 4 more"]);
    }
    expect(await stockUsed(ctx, article.limit.id)).toBe(0);
    // Under the cap an add goes through; at the cap the next is refused, in French too.
    expect((await add(ctx, token, opened[0]?.body.id, article.node.id, 3)).status).toBe(201);
    expect((await add(ctx, token, opened[0]?.body.id, article.node.id, 1)).status).toBe(201);
    const full = await ctx.call("POST", "/frontend/selected-nodes", {
      token,
      body: { basket_id: opened[0]?.body.id, node_id: article.node.id },
      headers: { "accept-language": "fr" },
    });
    expect(full.status).toBe(409);
    expect(full.body.errors[0]).toContain("4");
    expect(await stockUsed(ctx, article.limit.id)).toBe(4);
    await expectStockCountersMatchRows(ctx);
  });

  it("counts the buyer's paid baskets with the open one, and not another buyer's; no cap, no limit", async () => {
    const { event, article, moduleId } = await cappedSale(ctx, 4);
    const buyer = await createBuyer(ctx, event.id, moduleId);
    const other = await createBuyer(ctx, event.id, moduleId);
    expect((await add(ctx, buyer.token, buyer.basketId, article.node.id, 3)).status).toBe(201);
    expect((await add(ctx, other.token, other.basketId, article.node.id, 4)).status).toBe(201);
    await setBasketStatus(ctx, buyer.basketId, "validated");
    const second = await ctx.call("POST", "/frontend/baskets", { token: buyer.token, body: { event_id: event.id } });
    expect(second.body.id).not.toBe(buyer.basketId);
    const refused = await add(ctx, buyer.token, second.body.id, article.node.id, 2);
    expect(refused.body.errors).toEqual(["You can have at most 4 tickets for this event: you can add 1 more"]);
    expect((await add(ctx, buyer.token, second.body.id, article.node.id, 1)).status).toBe(201);
    expect((await add(ctx, buyer.token, second.body.id, article.node.id, 1)).body.errors).toEqual([
      "You can have at most 4 tickets for this event, in all your orders together",
    ]);
    // The same buyer on an event without a cap is limited only by the basket's maximum.
    const free = await cappedSale(ctx, null);
    const unlimited = await createBuyer(ctx, free.event.id, free.moduleId);
    expect((await add(ctx, unlimited.token, unlimited.basketId, free.article.node.id, 300)).status).toBe(201);
  });

  it("caps an article per buyer, names it, and leaves the event's other articles alone", async () => {
    const { event, article, moduleId } = await cappedSale(ctx, null);
    const limited = await addArticle(ctx.database, event.id, { title: "Day pass", price: 1000, stock: 100 });
    await ctx.database.transaction(function* (tx) {
      yield* run(
        tx
          .update(schema.nodeConfigurations)
          .set({ maxPerBuyer: 2 })
          .where(eq(schema.nodeConfigurations.id, limited.configuration.id))
          .run(),
      );
    });
    const buyer = await createBuyer(ctx, event.id, moduleId);
    const refused = await add(ctx, buyer.token, buyer.basketId, limited.node.id, 3);
    expect(refused).toMatchObject({
      status: 409,
      body: { errors: ["You can have at most 2 of “Day pass”: you can add 2 more"] },
    });
    expect((await add(ctx, buyer.token, buyer.basketId, limited.node.id, 2)).status).toBe(201);
    expect((await add(ctx, buyer.token, buyer.basketId, limited.node.id, 1)).body.errors).toEqual([
      "You can have at most 2 of “Day pass”: you can add 0 more",
    ]);
    expect((await add(ctx, buyer.token, buyer.basketId, article.node.id, 10)).status).toBe(201);
    expect(await stockUsed(ctx, limited.limit.id)).toBe(2);
  });

  it("lets two adds at once on two baskets of one buyer hold no more than the cap together", async () => {
    const { event, article, moduleId } = await cappedSale(ctx, 4);
    const buyer = await createBuyer(ctx, event.id, moduleId);
    // A second open basket of the same login, as a login could open before this rule (or one paid then reopened).
    const [row] = await ctx.database.db.select().from(schema.baskets).where(eq(schema.baskets.id, buyer.basketId));
    const second = await ctx.database.transaction(function* (tx) {
      const { id: _id, unikey, ...rest } = row as typeof schema.baskets.$inferSelect;
      return yield* run(
        tx
          .insert(schema.baskets)
          .values({ ...rest, unikey: `${unikey}2` })
          .returning()
          .get(),
      );
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        add(ctx, buyer.token, i % 2 ? second.id : buyer.basketId, article.node.id, 1 + (i % 3)),
      ),
    );
    const held = await ctx.database.db
      .select()
      .from(schema.selectedNodes)
      .where(eq(schema.selectedNodes.isArticle, true))
      .all();
    const buyersLines = held.filter((line) => [buyer.basketId, second.id].includes(line.basketId));
    expect(buyersLines.length).toBeLessThanOrEqual(4);
    expect(answers.filter((answer) => answer.status === 201).length).toBeGreaterThan(0);
    for (const answer of answers) expect([201, 409]).toContain(answer.status);
    expect(await stockUsed(ctx, article.limit.id)).toBe(buyersLines.length);
    await expectStockCountersMatchRows(ctx);
  });

  it("counts one login per email: two sign-ins by the same third-party email are one buyer", async () => {
    const { event, article, moduleId } = await cappedSale(ctx, 3);
    const first = await signInByEmail(ctx, event.id, moduleId, "Same@Example.org");
    const again = await signInByEmail(ctx, event.id, moduleId, "same@example.org");
    expect(again.loginId).toBe(first.loginId);
    const basket = await ctx.call("POST", "/frontend/baskets", { token: first.token, body: { event_id: event.id } });
    expect((await add(ctx, first.token, basket.body.id, article.node.id, 2)).status).toBe(201);
    await setBasketStatus(ctx, basket.body.id, "validated");
    const later = await ctx.call("POST", "/frontend/baskets", { token: again.token, body: { event_id: event.id } });
    expect(later.body.id).not.toBe(basket.body.id);
    expect((await add(ctx, again.token, later.body.id, article.node.id, 2)).body.errors).toEqual([
      "You can have at most 3 tickets for this event: you can add 1 more",
    ]);
    await addToBasket(ctx, { token: again.token, basketId: later.body.id }, article.node.id);
  });
});
