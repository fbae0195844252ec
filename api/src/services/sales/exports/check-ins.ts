// The check-in list of an event as a file: every ticket sold, whether it is in, when and by whom; the same rows,
// filters (`checked_in`, `q`, `preview`) and order as `GET /events/:id/check-ins`.
import { schema } from "@ticketing/db";
import type { ListOptions } from "../../../lib/list-query.ts";
import { CHECK_IN_COLUMNS, CHECK_IN_LIST, checkInsWhere, ticketsQuery } from "../../tickets/check-ins.ts";
import { columnsOf, type ExportTable, inBatches, sortKeyOf } from "./engine.ts";
import { type ExportRequest, fileNameOf, keysetOf, requiredEvent } from "./scope.ts";

/** The list's sorts, and the event it is of as a filter (the list has it in its path). */
export const CHECK_IN_EXPORT_LIST: ListOptions = { ...CHECK_IN_LIST, idFilters: ["eventId", "event"] };

export async function checkInsExport(request: ExportRequest): Promise<ExportTable> {
  const { db, query, t } = request;
  const event = await requiredEvent(request);
  const keyset = keysetOf(query, CHECK_IN_COLUMNS, schema.selectedNodes.id);
  const batches = inBatches(keyset, checkInsWhere(event.id, query), () => ticketsQuery(db, sortKeyOf(keyset)));
  const header = (key: string) => t(`columns.check_ins.${key}`);
  return {
    fileName: fileNameOf(request, "check-ins", [event]),
    sheetName: t("sheets.check_ins"),
    ...columnsOf(
      [
        { header: header("id"), kind: "integer", cell: (row) => row.id },
        { header: header("basket_reference"), kind: "text", width: 14, cell: (row) => row.reference },
        { header: header("article"), kind: "text", width: 28, cell: (row) => row.title },
        { header: header("article_fr"), kind: "text", width: 28, cell: (row) => row.titleFr },
        { header: header("holder"), kind: "text", width: 28, cell: (row) => row.holderName },
        {
          header: header("checked_in"),
          kind: "text",
          cell: (row) => t(row.checkedInAt === null ? "values.boolean.no" : "values.boolean.yes"),
        },
        { header: header("checked_in_at"), kind: "moment", cell: (row) => row.checkedInAt },
        { header: header("checked_in_by"), kind: "text", width: 30, cell: (row) => row.checkedInByEmail },
      ],
      batches,
    ),
  };
}
