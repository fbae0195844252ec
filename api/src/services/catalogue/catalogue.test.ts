// The catalogue cache is correct when another process writes the same database (issue 15, docs/decisions/0019):
// a second connection on the same file stands for a second server or a replica.
import { createDatabase, type Database, eq, run, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuyer, createOnSaleEvent, DRIVERS, type TestContext, useTestContext } from "../../test-support.ts";
import { addArticle, getCatalogue } from "./catalogue.ts";

type TreeNode = {
  id: number;
  title: string;
  article_calculated_price: number | null;
  stock: { remaining: number } | null;
  children: TreeNode[];
};

async function treeArticles(ctx: TestContext, eventId: number, token: string) {
  const tree = await ctx.call("GET", `/frontend/events/${eventId}/tree`, { token });
  expect(tree.status, JSON.stringify(tree.body)).toBe(200);
  return new Map((tree.body.root.children as TreeNode[]).map((node) => [node.id, node]));
}

describe.each(DRIVERS)("the catalogue as another process changes it (%s)", (driver) => {
  const ctx = useTestContext(driver);
  let other: Database;

  beforeAll(async () => {
    other = createDatabase({ url: ctx.config.databaseUrl, driver });
  });
  afterAll(async () => other.close());

  it("is seen at once, in getCatalogue and in the tree, after a write through a second connection", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 5, price: 1500 });
    const buyer = await createBuyer(ctx, event.id, moduleId);
    expect((await getCatalogue(ctx.database.db, event.id)).byId.get(article.node.id)?.configuration.title).toBe(
      "Entry",
    );
    expect((await treeArticles(ctx, event.id, buyer.token)).get(article.node.id)).toMatchObject({
      title: "Entry",
      article_calculated_price: 1500,
    });

    await other.transaction(function* (tx) {
      yield* run(
        tx
          .update(schema.nodeConfigurations)
          .set({ title: "Front row" })
          .where(eq(schema.nodeConfigurations.id, article.configuration.id))
          .run(),
      );
      yield* run(
        tx
          .update(schema.nodePriceRules)
          .set({ value: 2000 })
          .where(eq(schema.nodePriceRules.id, article.priceRule.id))
          .run(),
      );
    });
    const balcony = await addArticle(other, event.id, { title: "Balcony", price: 900, stock: 3 });

    const catalogue = await getCatalogue(ctx.database.db, event.id);
    expect(catalogue.byId.get(article.node.id)?.configuration.title).toBe("Front row");
    expect(catalogue.byId.get(balcony.node.id)?.configuration.title).toBe("Balcony");
    const articles = await treeArticles(ctx, event.id, buyer.token);
    expect(articles.get(article.node.id)).toMatchObject({ title: "Front row", article_calculated_price: 2000 });
    expect(articles.get(balcony.node.id)).toMatchObject({
      title: "Balcony",
      article_calculated_price: 900,
      stock: { remaining: 3 },
    });

    await other.transaction(function* (tx) {
      yield* run(tx.delete(schema.nodes).where(eq(schema.nodes.id, balcony.node.id)).run());
    });
    expect((await getCatalogue(ctx.database.db, event.id)).byId.has(balcony.node.id)).toBe(false);
    expect((await treeArticles(ctx, event.id, buyer.token)).has(balcony.node.id)).toBe(false);
  });

  it("keeps its copy while only the stock counters move, and the tree shows them as they are", async () => {
    const { event, article, moduleId } = await createOnSaleEvent(ctx, { stock: 5 });
    const buyer = await createBuyer(ctx, event.id, moduleId);
    const before = await getCatalogue(ctx.database.db, event.id);

    await other.transaction(function* (tx) {
      yield* run(tx.update(schema.nodeLimits).set({ used: 2 }).where(eq(schema.nodeLimits.id, article.limit.id)).run());
    });

    expect(await getCatalogue(ctx.database.db, event.id)).toBe(before);
    expect((await treeArticles(ctx, event.id, buyer.token)).get(article.node.id)?.stock).toMatchObject({
      remaining: 3,
    });

    await other.transaction(function* (tx) {
      yield* run(
        tx.update(schema.nodeLimits).set({ maximum: 4 }).where(eq(schema.nodeLimits.id, article.limit.id)).run(),
      );
    });
    expect(await getCatalogue(ctx.database.db, event.id)).not.toBe(before);
    expect((await treeArticles(ctx, event.id, buyer.token)).get(article.node.id)?.stock).toMatchObject({
      remaining: 2,
      maximum: 4,
    });
  });
});
