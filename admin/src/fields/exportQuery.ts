// What an export asks the API for (DESIGN.md 3 `GET /exports/:list`): the rows of the list as the user sees it.
import type { ListQuery } from "../dataProvider.ts";

/** The part of a react-admin list's state an export needs (`useListContext()`). */
export interface ListView {
  filterValues: Record<string, unknown>;
  sort?: { field: string; order: "ASC" | "DESC" };
}

/**
 * The list's filters (what the user chose) with the filter the page always adds (a List's `filter` prop, the
 * event or the unit, which react-admin keeps out of `filterValues`): the page's wins, as react-admin's own query
 * does. Outside a list (the stocks table, a unit's members) only the page's filter. Empty values are left out.
 */
export function exportQuery(view: ListView | null | undefined, filter: Record<string, unknown> = {}): ListQuery {
  const merged = { ...(view?.filterValues ?? {}), ...filter };
  const kept = Object.fromEntries(
    Object.entries(merged).filter(([, value]) => value !== undefined && value !== null && value !== ""),
  );
  return view?.sort?.field
    ? { filter: kept, sort: { field: view.sort.field, order: view.sort.order } }
    : { filter: kept };
}
