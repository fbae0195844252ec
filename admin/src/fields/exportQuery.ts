// What an export asks the API for (docs/design.md §3 `GET /exports/:list`): the rows of the list as the user sees it.
import type { ExportList } from "@ticketing/shared/constants";
import type { ListQuery } from "../dataProvider.ts";

/** The part of a react-admin list's state an export needs (`useListContext()`). */
export interface ListView {
  /** the list's resource: its sort is one the export of the same name takes (the API reads both with one ListOptions) */
  resource?: string;
  filterValues: Record<string, unknown>;
  sort?: { field: string; order: "ASC" | "DESC" };
}

/**
 * The list's filters (what the user chose) with the filter the page always adds (a List's `filter` prop, the
 * event or the unit, which react-admin keeps out of `filterValues`): the page's wins, as react-admin's own query
 * does. Outside a list (the stocks table, a unit's members) only the page's filter. Empty values are left out.
 *
 * The list's sort goes along only to the export of that same list, which the API orders with the list's own sort
 * fields. Another list's export on the page (the participants beside the baskets) takes the filters, not the sort:
 * its rows are not the list's (one per article, not per basket) and keep their own order.
 */
export function exportQuery(
  list: ExportList,
  view: ListView | null | undefined,
  filter: Record<string, unknown> = {},
): ListQuery {
  const merged = { ...(view?.filterValues ?? {}), ...filter };
  const kept = Object.fromEntries(
    Object.entries(merged).filter(([, value]) => value !== undefined && value !== null && value !== ""),
  );
  return view?.sort?.field && view.resource === list
    ? { filter: kept, sort: { field: view.sort.field, order: view.sort.order } }
    : { filter: kept };
}
