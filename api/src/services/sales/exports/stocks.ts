// The event's stocks table as a file: the figures of `GET /events/:id/stocks`, one row per article (a table of the
// tree's size, read at once).
import type { StockRow } from "@ticketing/shared/schemas/sales";
import type { ListOptions } from "../../../lib/list-query.ts";
import { stocksTable } from "../../catalogue/stocks.ts";
import { isPreview } from "../sales.ts";
import { columnsOf, type ExportTable } from "./engine.ts";
import { type ExportRequest, fileNameOf, requiredEvent } from "./scope.ts";

/** The stocks table takes an event filter and `preview`, and is in the tree's order: no sort of its own. */
export const STOCKS_LIST: ListOptions = { sortable: ["id"], idFilters: ["eventId", "event"] };

export async function stocksExport(request: ExportRequest): Promise<ExportTable> {
  const { t } = request;
  const event = await requiredEvent(request);
  const table = await stocksTable(request.db, request.user, event.id, isPreview(request.query.filter));
  const header = (key: string) => t(`columns.stocks.${key}`);
  const count = (key: string, cell: (row: StockRow) => number | null) => ({
    header: header(key),
    kind: "integer" as const,
    cell,
  });
  return {
    fileName: fileNameOf(request, "stocks", [event]),
    sheetName: t("sheets.stocks"),
    ...columnsOf(
      [
        { header: header("id"), kind: "integer", cell: (row) => row.id },
        { header: header("title"), kind: "text", width: 30, cell: (row) => row.title },
        { header: header("root_path"), kind: "text", width: 40, cell: (row) => row.rootPath },
        count("total", (row) => row.total),
        count("new", (row) => row.new),
        count("payment_in_progress", (row) => row.paymentInProgress),
        count("validated", (row) => row.validated),
        count("reserved", (row) => row.reserved),
        count("refunded", (row) => row.refunded),
        count("remaining", (row) => row.remaining),
      ],
      (async function* () {
        yield table.rows;
      })(),
    ),
  };
}
