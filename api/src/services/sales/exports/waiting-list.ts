// An event's waiting list as a file (issue 31): one row per entry in order of joining, each waiting one with its
// position, as `GET /events/:id/waiting-list/entries` lists them; filters `testing` (or `preview`) and `state`.
import { eq, schema } from "@ticketing/db";
import { WAITING_LIST_ENTRY_STATES, type WaitingListEntryState } from "@ticketing/shared/constants";
import { DomainError } from "../../../lib/errors.ts";
import type { ListOptions } from "../../../lib/list-query.ts";
import { entriesWhere, entryFields } from "../../waiting-list/organiser.ts";
import { isPreview } from "../sales.ts";
import { columnsOf, type ExportTable, inBatches, mapBatches } from "./engine.ts";
import { type ExportRequest, fileNameOf, requiredEvent } from "./scope.ts";

/** In order of joining only (positions are counted in it); the event it is of as a filter. */
export const WAITING_LIST_EXPORT_LIST: ListOptions = { sortable: ["id"], idFilters: ["eventId", "event"] };

/** `testing` (or the other lists' `preview`): true, false, or absent; anything else is a 400. */
function testingOf(filter: Record<string, unknown>): boolean {
  const value = filter.testing;
  if (value === undefined || value === null) return isPreview(filter);
  if (value === true || value === "true" || value === 1 || value === "1") return true;
  if (value === false || value === "false" || value === 0 || value === "0") return false;
  throw new DomainError("invalid", ["errors.filter_testing_invalid"]);
}

/** `state`: one of the entry states, or absent. */
function stateOf(filter: Record<string, unknown>): WaitingListEntryState | undefined {
  const value = filter.state;
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string" && (WAITING_LIST_ENTRY_STATES as readonly string[]).includes(value))
    return value as WaitingListEntryState;
  throw new DomainError("invalid", ["errors.filter_state_invalid"], undefined, {
    states: WAITING_LIST_ENTRY_STATES.join(", "),
  });
}

export async function waitingListExport(request: ExportRequest): Promise<ExportTable> {
  const { db, query, t } = request;
  const event = await requiredEvent(request);
  const testing = testingOf(query.filter);
  const state = stateOf(query.filter);
  const entries = schema.waitingListEntries;
  const keyset = { column: entries.id, id: entries.id, order: "asc" as const };
  const batches = inBatches(keyset, entriesWhere(event.id, testing, state), () =>
    db
      // The French title of the entry's article is its element's (the entry keeps the English it joined with).
      .select({ ...entryFields, titleFr: schema.nodeConfigurations.titleFr })
      .from(entries)
      .leftJoin(schema.nodes, eq(schema.nodes.id, entries.nodeId))
      .leftJoin(schema.nodeConfigurations, eq(schema.nodeConfigurations.id, schema.nodes.configurationId))
      .$dynamic(),
  );
  // Read in order of joining, every waiting entry of the list passes the filter (or none does): its position is
  // the count of waiting ones read so far.
  let waiting = 0;
  const positioned = mapBatches(batches, (rows) =>
    rows.map((row) => Object.assign(row, { position: row.state === "waiting" ? ++waiting : null })),
  );
  const header = (key: string) => t(`columns.waiting_list.${key}`);
  return {
    fileName: fileNameOf(
      { ...request, query: { ...query, filter: { ...query.filter, preview: testing } } },
      "waiting-list",
      [event],
    ),
    sheetName: t("sheets.waiting_list"),
    ...columnsOf(
      [
        { header: header("position"), kind: "integer", cell: (row) => row.position },
        { header: header("email"), kind: "text", width: 30, cell: (row) => row.email },
        { header: header("article"), kind: "text", width: 28, cell: (row) => row.title },
        { header: header("article_fr"), kind: "text", width: 28, cell: (row) => row.titleFr ?? "" },
        { header: header("quantity"), kind: "integer", cell: (row) => row.quantity },
        { header: header("state"), kind: "text", cell: (row) => t(`values.waiting_list_state.${row.state}`) },
        { header: header("offered_quantity"), kind: "integer", cell: (row) => row.offeredQuantity },
        { header: header("offered_at"), kind: "moment", cell: (row) => row.offeredAt },
        { header: header("offer_expires_at"), kind: "moment", cell: (row) => row.offerExpiresAt },
        { header: header("joined_at"), kind: "moment", cell: (row) => row.createdAt },
      ],
      positioned,
    ),
  };
}
