// The event's stocks table as a file: the figures of `GET /events/:id/stocks`, one row per article (a table of the
// tree's size, read at once).
import type { ListOptions } from "../../lib/list-query.ts";
import { isPreview } from "../sales.ts";
import { stocksTable } from "../stocks.ts";
import type { ExportTable } from "./engine.ts";
import { type ExportRequest, fileNameOf, requiredEvent } from "./scope.ts";

/** The stocks table takes an event filter and `preview`, and is in the tree's order: no sort of its own. */
export const STOCKS_LIST: ListOptions = { sortable: ["id"], idFilters: ["eventId", "event"] };

export async function stocksExport(request: ExportRequest): Promise<ExportTable> {
  const { t } = request;
  const event = await requiredEvent(request);
  const table = await stocksTable(request.db, request.user, event.id, isPreview(request.query.filter));
  const header = (key: string) => t(`columns.stocks.${key}`);
  const count = (key: string) => ({ header: header(key), kind: "integer" as const });
  return {
    fileName: fileNameOf(request, "stocks", [event]),
    sheetName: t("sheets.stocks"),
    columns: [
      { header: header("id"), kind: "integer" },
      { header: header("title"), kind: "text", width: 30 },
      { header: header("root_path"), kind: "text", width: 40 },
      count("total"),
      count("new"),
      count("payment_in_progress"),
      count("validated"),
      count("reserved"),
      count("refunded"),
      count("remaining"),
    ],
    rows: (async function* () {
      yield table.rows.map((row) => [
        row.id,
        row.title,
        row.rootPath,
        row.total,
        row.new,
        row.paymentInProgress,
        row.validated,
        row.reserved,
        row.refunded,
        row.remaining,
      ]);
    })(),
  };
}
