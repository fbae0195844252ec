// The stocks table's rows as the page orders and sums them (docs/specification.md §3 "Stocks table columns").
import type { StockRow } from "@ticketing/shared/schemas/sales";

/** The columns in the specification's order, then what is left of the stock. */
export const STOCK_COLUMNS = [
  "id",
  "title",
  "rootPath",
  "total",
  "new",
  "paymentInProgress",
  "validated",
  "reserved",
  "refunded",
  "remaining",
] as const satisfies readonly (keyof StockRow)[];
export type StockColumn = (typeof STOCK_COLUMNS)[number];

export const TEXT_COLUMNS: ReadonlySet<StockColumn> = new Set(["title", "rootPath"]);

/** Stock figures where null means unlimited. */
export const UNLIMITED_COLUMNS: ReadonlySet<StockColumn> = new Set(["total", "reserved", "remaining"]);

export type SortOrder = "asc" | "desc";
export interface StockSort {
  column: StockColumn;
  order: SortOrder;
}

/**
 * The rows ordered by a column (the API's tree order without one): text by the language's collation, numbers by
 * value with unlimited (null) above every number; ties in the tree's order.
 */
export function sortStockRows(rows: readonly StockRow[], sort: StockSort | null, locale: string): StockRow[] {
  if (!sort) return [...rows];
  const { column, order } = sort;
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: "base" });
  const direction = order === "asc" ? 1 : -1;
  const compare = (a: StockRow, b: StockRow) => {
    const left = a[column];
    const right = b[column];
    if (typeof left === "string" || typeof right === "string") return collator.compare(String(left), String(right));
    return (left ?? Number.POSITIVE_INFINITY) - (right ?? Number.POSITIVE_INFINITY) || 0;
  };
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => direction * compare(a.row, b.row) || a.index - b.index)
    .map(({ row }) => row);
}

/** A header's next sort: ascending first, then descending, then ascending again. */
export const nextSort = (sort: StockSort | null, column: StockColumn): StockSort => ({
  column,
  order: sort?.column === column && sort.order === "asc" ? "desc" : "asc",
});

/** Columns summed on the totals row: the counts of lines. A stock's total, reserved and remaining are not summed
 * (a stock shared by several articles is in each of their rows). */
export const SUMMED_COLUMNS = ["new", "paymentInProgress", "validated", "refunded"] as const;
export type StockTotals = Record<(typeof SUMMED_COLUMNS)[number], number>;

export function stockTotals(rows: readonly StockRow[]): StockTotals {
  const totals: StockTotals = { new: 0, paymentInProgress: 0, validated: 0, refunded: 0 };
  for (const row of rows) for (const column of SUMMED_COLUMNS) totals[column] += row[column];
  return totals;
}
