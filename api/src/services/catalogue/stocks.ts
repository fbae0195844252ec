// The event's stocks table (docs/specification.md §3 "Stocks table columns"): each article with its lines counted by
// their basket's status, beside the stock counters the sale moves, read as the ticket office reads them
// (docs/design.md §4 "Stock").
import { and, type Db, eq, inArray, isNotNull, ne, schema, sql } from "@ticketing/db";
import { type BasketStatus, GIVEN_BACK_STATUSES, SOLD_BASKET_STATUSES } from "@ticketing/shared/constants";
import type { StockRow, StocksTable } from "@ticketing/shared/schemas/sales";
import { getVisibleEvent, type User } from "../accounts/access.ts";
import { type CatalogueNode, getCatalogue, nodeStock, withFreshStock } from "./catalogue.ts";

/** The article lines (not options) of the event's real baskets, or of its testing ones with `preview`. */
export const eventArticleLines = (eventId: number, preview: boolean) =>
  and(
    eq(schema.baskets.eventId, eventId),
    eq(schema.baskets.testing, preview),
    eq(schema.selectedNodes.isArticle, true),
  );

/** Per article node: its lines (articles, not options) by their basket's status, in real or testing baskets. */
async function lineCounts(db: Db, eventId: number, preview: boolean) {
  const { selectedNodes: lines, baskets } = schema;
  const held = (statuses: readonly BasketStatus[]) =>
    sql<number>`sum(case when ${and(eq(lines.status, "held"), inArray(baskets.status, statuses))} then 1 else 0 end)`;
  const rows = await db
    .select({
      nodeId: lines.nodeId,
      new: held(["new"]),
      paymentInProgress: held(["payment_in_progress"]),
      validated: held(SOLD_BASKET_STATUSES),
      refunded: sql<number>`sum(case when ${lines.status} = 'refunded' then 1 else 0 end)`,
    })
    .from(lines)
    .innerJoin(baskets, eq(baskets.id, lines.basketId))
    .where(
      and(
        eventArticleLines(eventId, preview),
        isNotNull(lines.nodeId),
        ...GIVEN_BACK_STATUSES.map((status) => ne(lines.status, status)),
      ),
    )
    .groupBy(lines.nodeId)
    .all();
  return new Map(
    rows.map((row) => [
      row.nodeId as number,
      {
        new: Number(row.new),
        paymentInProgress: Number(row.paymentInProgress),
        validated: Number(row.validated),
        refunded: Number(row.refunded),
      },
    ]),
  );
}

/**
 * The stocks table of an event the user may see (404 otherwise): one row per article of its tree, depth first.
 * `preview` counts testing baskets and the testing counters instead of real ones. The stock columns come from the
 * counters through `nodeStock`, the function the buyer's tree shows its stock with, so the two never disagree.
 */
export async function stocksTable(db: Db, user: User, eventId: number, preview: boolean): Promise<StocksTable> {
  await getVisibleEvent(db, user, eventId);
  const [catalogue, counts] = await Promise.all([
    getCatalogue(db, eventId).then((cached) => withFreshStock(db, cached)),
    lineCounts(db, eventId, preview),
  ]);
  const rows: StockRow[] = [];
  // The root is the registration module's technical node, titled after the event: the path starts below it.
  const walk = (node: CatalogueNode, path: string[]) => {
    const title = node.configuration.title;
    if (node.configuration.category === "article") {
      const stock = nodeStock(catalogue, node, preview);
      const lines = counts.get(node.id);
      rows.push({
        id: node.id,
        title,
        rootPath: path.join(" / "),
        total: stock ? stock.limit.maximum : null,
        new: lines?.new ?? 0,
        paymentInProgress: lines?.paymentInProgress ?? 0,
        validated: lines?.validated ?? 0,
        reserved: stock ? (preview ? stock.limit.testingUsed : stock.limit.used) : null,
        refunded: lines?.refunded ?? 0,
        // As the ticket office shows it: never below 0 after a limit was lowered under what is taken.
        remaining: stock ? Math.max(0, stock.remaining) : null,
      });
    }
    for (const child of node.children) walk(child, [...path, title]);
  };
  for (const child of catalogue.root.children) walk(child, []);
  return { eventId, preview, rows };
}
