// The stocks table's call, its sort by any column (unlimited above every number) and its totals row.
import type { StockRow } from "@ticketing/shared/schemas/sales";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch, setupProviders } from "../../test-support.ts";
import { nextSort, sortStockRows, stockTotals } from "./stocksTable.ts";

const tokens = { accessToken: "access-1", refreshToken: "refresh-1" };

afterEach(() => {
  vi.unstubAllGlobals();
});

const row = (id: number, title: string, figures: Partial<StockRow> = {}): StockRow => ({
  id,
  title,
  rootPath: "Concert",
  total: null,
  new: 0,
  paymentInProgress: 0,
  validated: 0,
  reserved: null,
  refunded: 0,
  remaining: null,
  ...figures,
});

const rows = [
  row(1, "Étudiant", { total: 100, validated: 30, reserved: 32, remaining: 68, new: 2, refunded: 1 }),
  row(2, "adulte", { validated: 50, paymentInProgress: 3 }),
  row(3, "Zone B", { total: 10, validated: 10, reserved: 10, remaining: 0, refunded: 2 }),
];

describe("stocks table call", () => {
  it("asks for the event's stocks, testing ones with preview, and reads them in camelCase", async () => {
    const calls = mockFetch(() =>
      jsonResponse({
        event_id: 5,
        preview: false,
        rows: [
          {
            id: 9,
            title: "Adult",
            root_path: "Concert / Seats",
            total: 100,
            new: 1,
            payment_in_progress: 2,
            validated: 3,
            reserved: 6,
            refunded: 1,
            remaining: 94,
          },
        ],
      }),
    );
    const { dataProvider } = setupProviders(tokens);
    const { data } = await dataProvider.getEventStocks(5, false);
    expect(calls[0]?.path).toBe("/events/5/stocks");
    expect(calls[0]?.query.get("preview")).toBe("false");
    expect(data.rows[0]).toMatchObject({ rootPath: "Concert / Seats", paymentInProgress: 2, remaining: 94 });
  });
});

describe("stocks table", () => {
  it("keeps the tree's order until a header is clicked", () => {
    expect(sortStockRows(rows, null, "fr-CH").map((stock) => stock.id)).toEqual([1, 2, 3]);
  });

  it("orders titles by the language's collation, accents and case aside", () => {
    const sorted = sortStockRows(rows, { column: "title", order: "asc" }, "fr-CH");
    expect(sorted.map((stock) => stock.title)).toEqual(["adulte", "Étudiant", "Zone B"]);
  });

  it("puts unlimited stocks above every number, and below them in descending order", () => {
    expect(sortStockRows(rows, { column: "remaining", order: "asc" }, "en").map((stock) => stock.id)).toEqual([
      3, 1, 2,
    ]);
    expect(sortStockRows(rows, { column: "remaining", order: "desc" }, "en").map((stock) => stock.id)).toEqual([
      2, 1, 3,
    ]);
  });

  it("sorts ascending first, then descending on a second click, and ascending on another column", () => {
    const first = nextSort(null, "validated");
    expect(first).toEqual({ column: "validated", order: "asc" });
    expect(nextSort(first, "validated")).toEqual({ column: "validated", order: "desc" });
    expect(nextSort({ column: "validated", order: "desc" }, "new")).toEqual({ column: "new", order: "asc" });
  });

  it("sums the counts of lines, not the stocks (a shared stock is in several rows)", () => {
    expect(stockTotals(rows)).toEqual({ new: 2, paymentInProgress: 3, validated: 90, refunded: 3 });
  });
});
