import { describe, expect, it } from "vitest";
import {
  addCatalogueElement,
  createBuyer,
  createOnSaleEvent,
  eventResourceCreator,
  expectStockCountersMatchRows,
  loginAs,
  stockUsed,
  type TestContext,
  useTestContext,
  WIRE_DRIVERS,
  writeEventRow,
} from "../../test-support.ts";

const addQuantity = (ctx: TestContext, buyer: { token: string; basketId: number }, nodeId: number, quantity: number) =>
  ctx.call("POST", "/frontend/selected-nodes", {
    token: buyer.token,
    body: { basket_id: buyer.basketId, node_id: nodeId, quantity },
  });

const basketOf = async (ctx: TestContext, buyer: { token: string; basketId: number }) =>
  (await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token })).body;

describe.each(WIRE_DRIVERS)("several of an article in one step (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("puts 3 identical lines in the basket and takes 3 from the stock", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 5, price: 1500 });
    const buyer = await createBuyer(ctx, event.id, moduleId);
    const added = await addQuantity(ctx, buyer, article.node.id, 3);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ basket_id: buyer.basketId, node_id: article.node.id, price: 1500 });
    const basket = await basketOf(ctx, buyer);
    expect(basket.items.map((item: { node_id: number }) => item.node_id)).toEqual(Array(3).fill(article.node.id));
    expect(basket.total).toBe(4500);
    expect(await stockUsed(ctx, article.limit.id)).toBe(3);
    await expectStockCountersMatchRows(ctx);
  });

  it("refuses more than the stock left with 409 and what is left, and adds nothing", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 2 });
    const buyer = await createBuyer(ctx, event.id, moduleId);
    const refused = await addQuantity(ctx, buyer, article.node.id, 3);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual(["Only 2 left: Entry"]);
    expect((await basketOf(ctx, buyer)).items).toEqual([]);
    expect(await stockUsed(ctx, article.limit.id)).toBe(0);
    await expectStockCountersMatchRows(ctx);
  });

  it("refuses more than the basket's item maximum with 409, saying how many more fit, and adds nothing", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 50 });
    await writeEventRow(ctx, event.id, { maxItemsPerBasket: 4 });
    const buyer = await createBuyer(ctx, event.id, moduleId);
    expect((await addQuantity(ctx, buyer, article.node.id, 2)).status).toBe(201);
    const refused = await addQuantity(ctx, buyer, article.node.id, 3);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual(["A basket holds at most 4 tickets: you can add 2 more"]);
    expect((await basketOf(ctx, buyer)).items).toHaveLength(2);
    expect((await addQuantity(ctx, buyer, article.node.id, 2)).status).toBe(201);
    expect(await stockUsed(ctx, article.limit.id)).toBe(4);
  });

  it("gives a stock of 5 to exactly one of two buyers asking 3 each at the same moment", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 5 });
    const buyers = [await createBuyer(ctx, event.id, moduleId), await createBuyer(ctx, event.id, moduleId)];
    const answers = await Promise.all(buyers.map((buyer) => addQuantity(ctx, buyer, article.node.id, 3)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)?.body.errors).toEqual(["Only 2 left: Entry"]);
    const counts = await Promise.all(buyers.map(async (buyer) => (await basketOf(ctx, buyer)).items.length));
    expect(counts.sort()).toEqual([0, 3]);
    expect(await stockUsed(ctx, article.limit.id)).toBe(3);
    await expectStockCountersMatchRows(ctx);
  });

  it("counts a group's range in different articles, not tickets: 2 of one, then none of another past the range", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 50, status: "draft" });
    const create = eventResourceCreator(ctx, await loginAs(ctx, sale.email, sale.password), sale.event.id);
    const group = await create("nodes", {
      parent_id: sale.article.node.parentId,
      configuration_id: await create("node-configurations", { category: "multiple_choice", title: "Workshops" }),
      cart_configuration_id: await create("node-cart-configurations", { range_min: 0, range_max: 1 }),
    });
    const workshop = (title: string) => addCatalogueElement(create, { parentId: group, category: "article", title });
    const [pottery, weaving] = [await workshop("Pottery"), await workshop("Weaving")];
    await writeEventRow(ctx, sale.event.id, { status: "public" });
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    expect((await addQuantity(ctx, buyer, pottery.node, 2)).status).toBe(201);
    const refused = await addQuantity(ctx, buyer, weaving.node, 3);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(["Choose less in this group"]);
    expect((await basketOf(ctx, buyer)).items).toHaveLength(2);
  });

  it("takes one when no quantity is given and refuses a quantity below 1 with 400", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 5 });
    const buyer = await createBuyer(ctx, event.id, moduleId);
    const single = await ctx.call("POST", "/frontend/selected-nodes", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, node_id: article.node.id },
    });
    expect(single.status).toBe(201);
    expect((await addQuantity(ctx, buyer, article.node.id, 0)).status).toBe(400);
    expect((await basketOf(ctx, buyer)).items).toHaveLength(1);
  });
});
