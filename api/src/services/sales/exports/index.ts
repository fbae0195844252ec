// `GET /exports/:list` (docs/design.md §3, docs/decisions/0011-exports.md): every back-office list as a csv or xlsx
// file, with the list's filters and permissions. Each list's module chooses its columns; the engine writes them.
import type { Db } from "@ticketing/db";
import { EXPORT_LISTS, type ExportFormat, type ExportList, type Language } from "@ticketing/shared/constants";
import { DomainError } from "../../../lib/errors.ts";
import type { ListOptions, ListQuery } from "../../../lib/list-query.ts";
import type { Log } from "../../../lib/log.ts";
import type { User } from "../../accounts/access.ts";
import { MEMBERSHIP_LIST } from "../../accounts/memberships.ts";
import { EVENT_LIST } from "../../events/event-list.ts";
import { INVOICE_LIST } from "../../invoices/invoice-views.ts";
import { BASKET_LIST } from "../sales.ts";
import { basketsExport } from "./baskets.ts";
import { CHECK_IN_EXPORT_LIST, checkInsExport } from "./check-ins.ts";
import { type ExportFile, type ExportTable, exportFile } from "./engine.ts";
import { eventsExport } from "./events.ts";
import { invoicesExport } from "./invoices.ts";
import { membershipsExport } from "./memberships.ts";
import { PARTICIPANT_LIST, participantsExport } from "./participants.ts";
import { type ExportRequest, exportRequest } from "./scope.ts";
import { STOCKS_LIST, stocksExport } from "./stocks.ts";
import { WAITING_LIST_EXPORT_LIST, waitingListExport } from "./waiting-list.ts";

export interface ExportSpec {
  /** the list's query options: the same sortable fields and id filters as the list's */
  list: ListOptions;
  /** checks the filter (400, or 404 for an event or unit the caller may not see), then reads lazily */
  table: (request: ExportRequest) => Promise<ExportTable>;
  /** Not events or sales (the unit's people): refused to an API token, like the list's own route (docs/decisions/0044). */
  staffOnly?: true;
}

const EXPORTS: Record<ExportList, ExportSpec> = {
  events: { list: EVENT_LIST, table: eventsExport },
  baskets: { list: BASKET_LIST, table: basketsExport },
  participants: { list: PARTICIPANT_LIST, table: participantsExport },
  invoices: { list: INVOICE_LIST, table: invoicesExport },
  stocks: { list: STOCKS_LIST, table: stocksExport },
  memberships: { list: MEMBERSHIP_LIST, table: membershipsExport, staffOnly: true },
  "check-ins": { list: CHECK_IN_EXPORT_LIST, table: checkInsExport },
  "waiting-list": { list: WAITING_LIST_EXPORT_LIST, table: waitingListExport },
};

/** The export of a list by its name in the path: 404 for a name that is not one of EXPORT_LISTS. */
export function exportSpec(name: string): ExportSpec {
  const spec = (EXPORT_LISTS as readonly string[]).includes(name) ? EXPORTS[name as ExportList] : undefined;
  if (!spec)
    throw new DomainError("not_found", ["exports.list_unknown"], undefined, { lists: EXPORT_LISTS.join(", ") });
  return spec;
}

/**
 * The list's rows as a file read while it is sent. Every refusal (a bad filter, an event the caller may not see)
 * is thrown here, before the first byte: once the file is under way, the rows are read batch by batch.
 */
export async function exportList(
  db: Db,
  user: User,
  spec: ExportSpec,
  query: ListQuery,
  options: { format: ExportFormat; language: Language; now: Date; logger: Log },
): Promise<ExportFile> {
  if (spec.staffOnly && user.apiToken) throw new DomainError("forbidden", ["errors.api_token_staff_only"]);
  const table = await spec.table(exportRequest(db, user, query, options.language, options.now));
  return exportFile(table, options.format, options.logger);
}
