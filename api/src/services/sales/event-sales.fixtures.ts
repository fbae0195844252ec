// What the sales figures' tests share: an event with shared and own stocks, an option and an unlimited article;
// buyers filling baskets and checking out; the stocks table checked against the rows, the counters and the tree
// the ticket office shows.
import { and, type Driver, eq, schema } from "@ticketing/db";
import { expect } from "vitest";
import {
  addCatalogueElement,
  addToBasket,
  createBuyer,
  createOnSaleEvent,
  eventResourceCreator,
  expectStockCountersMatchRows,
  loginAs,
  payOnDemoPage,
  checkOut as postCheckout,
  submitBilling,
  useTestContext,
  writeEventRow,
} from "../../test-support.ts";

export interface Row {
  id: number;
  title: string;
  root_path: string;
  total: number | null;
  new: number;
  payment_in_progress: number;
  validated: number;
  reserved: number | null;
  refunded: number;
  remaining: number | null;
}

export interface TreeNode {
  id: number;
  stock: { remaining: number; maximum: number } | null;
  children: TreeNode[];
}

/** Registers the hooks of a test file's database on `driver`, and gives the helpers that use it. */
export function useSalesFigures(driver: Driver) {
  const ctx = useTestContext(driver);

  /**
   * A public event with point of sale: "Entry" (25.00, own stock 8, with a T-shirt option at 5.00), "Workshop"
   * (40.00, own stock 30) in a group "Day 1", both in a shared stock "Hall" of 12, and "Drink" (8.00, unlimited).
   */
  async function salesEvent() {
    const sale = await createOnSaleEvent(ctx, { stock: 8, price: 2500, status: "draft" });
    const staff = await loginAs(ctx, sale.email, sale.password);
    const create = eventResourceCreator(ctx, staff, sale.event.id);
    const rootId = sale.article.node.parentId as number;
    const entry = { node: sale.article.node.id, configuration: sale.article.configuration.id };
    const shirt = await addCatalogueElement(create, {
      parentId: entry.node,
      category: "option",
      title: "T-shirt",
      price: 500,
      stock: { label: "T-shirts", maximum: 10 },
    });
    const day = await addCatalogueElement(create, { parentId: rootId, category: "no_configuration", title: "Day 1" });
    const workshop = await addCatalogueElement(create, {
      parentId: day.node,
      category: "article",
      title: "Workshop",
      price: 4000,
      stock: { label: "Workshop", maximum: 30 },
    });
    await create("node-limits", {
      label: "Hall",
      maximum: 12,
      node_configuration_ids: [entry.configuration, workshop.configuration],
    });
    const drink = await addCatalogueElement(create, {
      parentId: rootId,
      category: "article",
      title: "Drink",
      price: 800,
    });
    await writeEventRow(ctx, sale.event.id, {
      status: "public",
      moderationStatus: "validated",
      isPointOfSaleEnabled: true,
    });
    return { sale, staff, entry: entry.node, shirt: shirt.node, workshop: workshop.node, drink: drink.node };
  }
  type SalesEvent = Awaited<ReturnType<typeof salesEvent>>;
  type Buyer = { token: string; basketId: number };

  /** A buyer (a testing one with `testing`) whose basket holds `picks`: node ids, or a node with its options. */
  async function filled(event: SalesEvent, picks: (number | [number, number[]])[], testing = false) {
    const buyer = await createBuyer(ctx, event.sale.event.id, event.sale.moduleId, testing ? event.staff : undefined);
    for (const pick of picks) {
      const [nodeId, options] = typeof pick === "number" ? [pick, []] : pick;
      await addToBasket(ctx, buyer, nodeId, options);
    }
    return buyer;
  }

  /** Checks the basket out: online (paid on the demo page unless `pay` is false) or at the point of sale. */
  async function checkOut(buyer: Buyer, method: "online" | "point_of_sale", pay = true) {
    expect((await submitBilling(ctx, buyer)).status).toBe(201);
    const checkout = await postCheckout(ctx, buyer, method);
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    if (method === "online" && pay) await payOnDemoPage(ctx, checkout.body.payment_url);
    return checkout.body.invoice.id as number;
  }

  const basketOf = async (staff: string, basketId: number) =>
    (await ctx.call("GET", `/baskets/${basketId}`, { token: staff })).body as {
      status: string;
      items: { id: number; node_id: number }[];
    };
  const refund = async (staff: string, basketId: number, itemIds?: number[]) => {
    const response = await ctx.call("POST", `/baskets/${basketId}/refunds`, {
      token: staff,
      body: { reason: "Asked by the buyer", ...(itemIds ? { item_ids: itemIds } : {}) },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  };
  const stocks = async (token: string, eventId: number, preview = false) => {
    const response = await ctx.call("GET", `/events/${eventId}/stocks${preview ? "?preview=true" : ""}`, { token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ event_id: eventId, preview });
    return response.body.rows as Row[];
  };
  const dashboard = async (token: string, eventId: number, preview = false) => {
    const response = await ctx.call("GET", `/events/${eventId}/dashboard${preview ? "?preview=true" : ""}`, { token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };

  /** The article's counts straight from selected_nodes ⋈ baskets, in real or testing baskets. */
  async function countedFromRows(eventId: number, nodeId: number, testing: boolean) {
    const lines = await ctx.database.db
      .select({ lineStatus: schema.selectedNodes.status, basketStatus: schema.baskets.status })
      .from(schema.selectedNodes)
      .innerJoin(schema.baskets, eq(schema.baskets.id, schema.selectedNodes.basketId))
      .where(
        and(
          eq(schema.baskets.eventId, eventId),
          eq(schema.baskets.testing, testing),
          eq(schema.selectedNodes.nodeId, nodeId),
          eq(schema.selectedNodes.isArticle, true),
        ),
      )
      .all();
    const held = (...statuses: string[]) =>
      lines.filter((line) => line.lineStatus === "held" && statuses.includes(line.basketStatus)).length;
    return {
      new: held("new"),
      payment_in_progress: held("payment_in_progress"),
      validated: held("validated", "edition_in_progress"),
      refunded: lines.filter((line) => line.lineStatus === "refunded").length,
    };
  }

  /** The tightest of the article's stocks from the counters: the limit with the fewest left. */
  async function tightestFromCounters(nodeId: number, testing: boolean) {
    const limits = await ctx.database.db
      .select({
        maximum: schema.nodeLimits.maximum,
        used: schema.nodeLimits.used,
        testingUsed: schema.nodeLimits.testingUsed,
      })
      .from(schema.nodes)
      .innerJoin(
        schema.nodeConfigurationLimits,
        eq(schema.nodeConfigurationLimits.nodeConfigurationId, schema.nodes.configurationId),
      )
      .innerJoin(schema.nodeLimits, eq(schema.nodeLimits.id, schema.nodeConfigurationLimits.targetId))
      .where(eq(schema.nodes.id, nodeId))
      .all();
    const taken = limits.map((limit) => ({
      total: limit.maximum,
      reserved: testing ? limit.testingUsed : limit.used,
      remaining: limit.maximum - (testing ? limit.testingUsed : limit.used),
    }));
    taken.sort((a, b) => a.remaining - b.remaining);
    return taken[0] ?? { total: null, reserved: null, remaining: null };
  }

  /** The stock the ticket office's tree shows for each node, to a real or a testing buyer. */
  async function treeStocks(eventId: number, buyer: Buyer, testing: boolean) {
    const tree = await ctx.call("GET", `/frontend/events/${eventId}/tree${testing ? "?testing=true" : ""}`, {
      token: buyer.token,
    });
    expect(tree.status, JSON.stringify(tree.body)).toBe(200);
    const found = new Map<number, TreeNode["stock"]>();
    const walk = (node: TreeNode) => {
      found.set(node.id, node.stock);
      node.children.forEach(walk);
    };
    walk(tree.body.root);
    return found;
  }

  /** Every row equals the count from the rows, the counters and the buyer's tree. */
  async function expectTableFromRows(event: SalesEvent, rows: Row[], viewer: Buyer, testing: boolean) {
    const tree = await treeStocks(event.sale.event.id, viewer, testing);
    for (const row of rows) {
      expect(row, row.title).toMatchObject(await countedFromRows(event.sale.event.id, row.id, testing));
      expect(
        { total: row.total, reserved: row.reserved, remaining: row.remaining },
        `${row.title}'s stock from the counters`,
      ).toEqual(await tightestFromCounters(row.id, testing));
      const shown = tree.get(row.id);
      expect(shown, `${row.title} in the tree`).toBeDefined();
      expect(
        shown === null ? null : { total: shown?.maximum, remaining: shown?.remaining },
        `${row.title}'s stock as the ticket office shows it`,
      ).toEqual(row.total === null ? null : { total: row.total, remaining: row.remaining });
    }
    await expectStockCountersMatchRows(ctx);
  }
  return {
    ctx,
    salesEvent,
    filled,
    checkOut,
    basketOf,
    refund,
    stocks,
    dashboard,
    countedFromRows,
    tightestFromCounters,
    treeStocks,
    expectTableFromRows,
  };
}
