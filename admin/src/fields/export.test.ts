// The export button's request: the list's current view (its filters, the page's permanent filter, its sort) sent
// to `GET /exports/:list` in snake_case, and the file answered with the API's name.
import { HttpError } from "react-admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch, setupProviders } from "../test-support.ts";
import { exportQuery } from "./exportQuery.ts";

const tokens = { accessToken: "access-1", refreshToken: "refresh-1" };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("exportQuery", () => {
  it("exports the rows of the list as filtered and sorted, the page's own filter winning", () => {
    const view = {
      resource: "baskets",
      filterValues: { status: "payed", q: "dupont", eventId: 99 },
      sort: { field: "createdAt", order: "DESC" as const },
    };
    expect(exportQuery("baskets", view, { eventId: 3, preview: true })).toEqual({
      filter: { status: "payed", q: "dupont", eventId: 3, preview: true },
      sort: { field: "createdAt", order: "DESC" },
    });
  });

  it("exports the participants of the baskets list as it opens (newest first) with its filters, not its sort", () => {
    // The baskets page as it opens: sorted by creation, newest first; the participants export orders articles.
    const baskets = {
      resource: "baskets",
      filterValues: { q: "dupont" },
      sort: { field: "createdAt", order: "DESC" as const },
    };
    expect(exportQuery("participants", baskets, { eventId: 3 })).toEqual({ filter: { q: "dupont", eventId: 3 } });
  });

  it("leaves out cleared filters, and takes the page's filter alone outside a list", () => {
    const view = { resource: "baskets", filterValues: { q: "", status: undefined, createdFrom: "2025-03-01" } };
    expect(exportQuery("baskets", view).filter).toEqual({ createdFrom: "2025-03-01" });
    expect(exportQuery("stocks", null, { eventId: 3 })).toEqual({ filter: { eventId: 3 } });
  });
});

describe("downloadExport", () => {
  it("asks the API for the list in the chosen format with a snake_case filter and sort, and keeps its file name", async () => {
    const calls = mockFetch(
      () =>
        new Response("\uFEFFReference;Status\r\n", {
          headers: {
            "Content-Type": "text/csv; charset=utf-8",
            "Content-Disposition": 'attachment; filename="baskets-3.csv"',
          },
        }),
    );
    const { dataProvider } = setupProviders(tokens);
    const { data } = await dataProvider.downloadExport("baskets", "csv", {
      filter: { eventId: 3, createdFrom: "2025-03-01", preview: true },
      sort: { field: "createdAt", order: "DESC" },
    });
    expect(calls[0]?.path).toBe("/exports/baskets");
    expect(calls[0]?.query.get("format")).toBe("csv");
    expect(JSON.parse(calls[0]?.query.get("filter") ?? "")).toEqual({
      event_id: 3,
      created_from: "2025-03-01",
      preview: true,
    });
    expect(JSON.parse(calls[0]?.query.get("sort") ?? "")).toEqual(["created_at", "DESC"]);
    expect(calls[0]?.headers.get("Authorization")).toBe("Bearer access-1");
    expect(calls[0]?.headers.get("Accept-Language")).toBe("fr");
    expect(data.fileName).toBe("baskets-3.csv");
  });

  it("names the file after the list when the API gives no name, and sends no sort when the view has none", async () => {
    const calls = mockFetch(() => new Response("PK…", { headers: { "Content-Type": "application/octet-stream" } }));
    const { dataProvider } = setupProviders(tokens);
    const { data } = await dataProvider.downloadExport("memberships", "xlsx", { filter: { unitId: 2 } });
    expect(calls[0]?.query.has("sort")).toBe(false);
    expect(data.fileName).toBe("memberships.xlsx");
  });

  it("rejects with the API's message (an outsider's 404)", async () => {
    mockFetch(() => jsonResponse({ errors: ["Resource not found"] }, 404));
    const { dataProvider } = setupProviders(tokens);
    const error = await dataProvider.downloadExport("baskets", "xlsx", { filter: { eventId: 99 } }).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, message: "Resource not found" });
  });
});
