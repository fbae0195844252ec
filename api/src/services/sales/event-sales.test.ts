// The event's stocks table and dashboard (issue 13): figures that equal a count from the rows, that agree with the
// stock the ticket office shows, and that keep testing (preview) sales apart from real ones.
import { and, eq, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import {
  addCatalogueElement,
  addToBasket,
  createBuyer,
  createOnSaleEvent,
  DRIVERS,
  eventResourceCreator,
  expectStockCountersMatchRows,
  loginAs,
  markPaidByStaff,
  payOnDemoPage,
  checkOut as postCheckout,
  signedInUser,
  submitBilling,
  useTestContext,
  writeEventRow,
} from "../../test-support.ts";
import { releaseExpiredHolds } from "../baskets/baskets.ts";
import { stocksTable } from "../catalogue/stocks.ts";
import { eventDashboard } from "./dashboard.ts";

interface Row {
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

interface TreeNode {
  id: number;
  stock: { remaining: number; maximum: number } | null;
  children: TreeNode[];
}

describe.each(DRIVERS)("event sales figures (%s)", (driver) => {
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

  it("counts new, paying, validated, refunded and expired baskets as the rows and the ticket office do", async () => {
    const event = await salesEvent();
    const { staff, entry, shirt, workshop, drink } = event;
    const eventId = event.sale.event.id;

    // Expired: held once, released by the sweep once its time was over; it counts nowhere.
    const expired = await filled(event, [entry, workshop]);
    await releaseExpiredHolds(ctx.database, new Date(Date.now() + 365 * 24 * 3600_000));
    // Validated online: two entries (the first with a T-shirt) and a workshop.
    await checkOut(await filled(event, [[entry, [shirt]], entry, workshop]), "online");
    // Validated at the point of sale, then its entry refunded (the drink stays sold).
    const partly = await filled(event, [entry, drink]);
    await markPaidByStaff(ctx, staff, await checkOut(partly, "point_of_sale"));
    const partlyEntry = (await basketOf(staff, partly.basketId)).items.find((item) => item.node_id === entry);
    await refund(staff, partly.basketId, [partlyEntry?.id as number]);
    // Validated, then refunded whole.
    const whole = await filled(event, [entry, workshop]);
    await checkOut(whole, "online");
    await refund(staff, whole.basketId);
    expect((await basketOf(staff, whole.basketId)).status).toBe("refunded");
    // Paying at the point of sale, not paid yet.
    const paying = await filled(event, [entry, workshop]);
    await checkOut(paying, "point_of_sale");
    expect((await basketOf(staff, paying.basketId)).status).toBe("payment_in_progress");
    // Being filled.
    const fresh = await filled(event, [entry, drink, drink]);
    expect((await basketOf(staff, expired.basketId)).items).toEqual([]);

    const rows = await stocks(staff, eventId);
    // One row per article in tree order, the option left out; the path starts below the event's root.
    expect(rows.map((row) => [row.title, row.root_path])).toEqual([
      ["Entry", ""],
      ["Workshop", "Day 1"],
      ["Drink", ""],
    ]);
    const [entryRow, workshopRow, drinkRow] = rows;
    // Entry's own stock (8) is its tightest: what it holds is exactly its new, paying and validated lines.
    expect(entryRow).toMatchObject({
      new: 1,
      payment_in_progress: 1,
      validated: 2,
      refunded: 2,
      total: 8,
      reserved: 4,
      remaining: 4,
    });
    // The workshop's tightest is the Hall (12) it shares with Entry: both count in its reserved.
    expect(workshopRow).toMatchObject({
      new: 0,
      payment_in_progress: 1,
      validated: 1,
      refunded: 1,
      total: 12,
      reserved: 6,
      remaining: 6,
    });
    expect(drinkRow).toMatchObject({ new: 2, validated: 1, total: null, reserved: null, remaining: null });
    await expectTableFromRows(event, rows, fresh, false);

    // The service answers the same as the route (the csv/xlsx export reads it).
    const direct = await stocksTable(ctx.database.db, event.sale.organiser, eventId, false);
    expect(direct.rows.map((row) => [row.id, row.new, row.validated, row.reserved])).toEqual(
      rows.map((row) => [row.id, row.new, row.validated, row.reserved]),
    );
  });

  it("shows testing purchases only with preview=true, and they never move the real figures", async () => {
    const event = await salesEvent();
    const { staff, entry, workshop } = event;
    const eventId = event.sale.event.id;
    const buyer = await filled(event, [entry]);
    await checkOut(buyer, "online");
    const realBefore = await stocks(staff, eventId);
    const dashboardBefore = await dashboard(staff, eventId);

    const tester = await filled(event, [entry, workshop], true);
    await checkOut(tester, "online");
    const stillFilling = await filled(event, [workshop], true);

    expect(await stocks(staff, eventId)).toEqual(realBefore);
    expect(await dashboard(staff, eventId)).toEqual(dashboardBefore);
    const previewed = await stocks(staff, eventId, true);
    expect(previewed.map((row) => [row.title, row.new, row.validated, row.reserved])).toEqual([
      ["Entry", 0, 1, 1],
      // The Hall shared with Entry holds three testing articles: the tightest.
      ["Workshop", 1, 1, 3],
      ["Drink", 0, 0, null],
    ]);
    await expectTableFromRows(event, previewed, stillFilling, true);
    const testingDashboard = await dashboard(staff, eventId, true);
    expect(testingDashboard).toMatchObject({
      preview: true,
      total_sales: 6500,
      validated_baskets: 1,
      currently_purchasing: 1,
      sales_per_article: [
        { node_id: workshop, title: "Workshop", count: 1, amount: 4000 },
        { node_id: entry, title: "Entry", count: 1, amount: 2500 },
      ],
    });
    expect(dashboardBefore).toMatchObject({ preview: false, total_sales: 2500, validated_baskets: 1 });
  });

  it("adds up sales, refunds and baskets, per day and per article", async () => {
    const event = await salesEvent();
    const { staff, entry, shirt, workshop, drink } = event;
    const eventId = event.sale.event.id;
    const empty = await dashboard(staff, eventId);
    expect(empty).toEqual({
      event_id: eventId,
      preview: false,
      currency: "CHF",
      total_sales: 0,
      total_refunded: 0,
      validated_baskets: 0,
      refunded_baskets: 0,
      currently_purchasing: 0,
      sales_over_time: [],
      sales_per_article: [],
    });

    // 30.00 + 25.00 + 25.00 + 40.00 online; the second entry refunded.
    const first = await filled(event, [[entry, [shirt]], entry, entry, workshop]);
    await checkOut(first, "online");
    const second = (await basketOf(staff, first.basketId)).items.filter((item) => item.node_id === entry)[1];
    await refund(staff, first.basketId, [second?.id as number]);
    // 40.00 + 8.00 at the point of sale, refunded whole.
    const whole = await filled(event, [workshop, drink]);
    await markPaidByStaff(ctx, staff, await checkOut(whole, "point_of_sale"));
    await refund(staff, whole.basketId);
    // Paying, and being filled (an empty basket counts for nothing).
    await checkOut(await filled(event, [drink]), "online", false);
    const fresh = await filled(event, [drink]);
    await filled(event, []);

    const figures = await dashboard(staff, eventId);
    expect(figures).toMatchObject({
      total_sales: 12000 + 4800,
      total_refunded: 2500 + 4800,
      validated_baskets: 1,
      refunded_baskets: 1,
      currently_purchasing: 2,
      sales_per_article: [
        { node_id: entry, title: "Entry", count: 2, amount: 5500 },
        { node_id: workshop, title: "Workshop", count: 1, amount: 4000 },
      ],
    });
    // Per day, as the invoices' own dates say.
    const invoices = await ctx.database.db
      .select()
      .from(schema.invoices)
      .innerJoin(schema.baskets, eq(schema.baskets.id, schema.invoices.basketId))
      .where(eq(schema.baskets.eventId, eventId))
      .all();
    const days = new Map<string, { date: string; sales: number; refunds: number; baskets: number }>();
    for (const { invoices: invoice } of invoices) {
      if (invoice.isCancelled || (invoice.relatedInvoiceId === null && !invoice.isResolved)) continue;
      const date = (invoice.relatedInvoiceId === null ? (invoice.resolvedAt ?? "") : invoice.createdAt).slice(0, 10);
      const day = days.get(date) ?? { date, sales: 0, refunds: 0, baskets: 0 };
      if (invoice.relatedInvoiceId === null)
        Object.assign(day, { sales: day.sales + invoice.amount, baskets: day.baskets + 1 });
      else day.refunds -= invoice.amount;
      days.set(date, day);
    }
    expect(figures.sales_over_time).toEqual([...days.values()].sort((a, b) => a.date.localeCompare(b.date)));
    expect(figures.sales_over_time.reduce((sum: number, day: { sales: number }) => sum + day.sales, 0)).toBe(16800);

    // The fresh basket stops counting once its reservation time is over; the paying one still counts.
    const basket = await ctx.database.db
      .select()
      .from(schema.baskets)
      .where(eq(schema.baskets.id, fresh.basketId))
      .get();
    const expiresAt = new Date(basket?.expiresAt as string);
    const at = (moment: Date) => eventDashboard(ctx.database.db, event.sale.organiser, eventId, false, moment);
    expect((await at(new Date(expiresAt.getTime() - 1000))).currentlyPurchasing).toBe(2);
    expect((await at(new Date(expiresAt.getTime() + 1000))).currentlyPurchasing).toBe(1);
  });

  it("answers 404 to an outsider, 401 without a token, and 400 for a bad preview flag", async () => {
    const event = await salesEvent();
    const eventId = event.sale.event.id;
    const { token: outsider } = await signedInUser(ctx, "outsider");
    for (const path of [`/events/${eventId}/stocks`, `/events/${eventId}/dashboard`]) {
      expect((await ctx.call("GET", path, { token: outsider })).status).toBe(404);
      expect((await ctx.call("GET", `${path}?preview=true`, { token: outsider })).status).toBe(404);
      expect((await ctx.call("GET", path)).status).toBe(401);
      const bad = await ctx.call("GET", `${path}?preview=maybe`, { token: event.staff });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.length).toBeGreaterThan(0);
      expect((await ctx.call("GET", path.replace(String(eventId), "999999"), { token: event.staff })).status).toBe(404);
    }
  });
});
