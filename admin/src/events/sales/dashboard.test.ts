// The dashboard's call and how its figures are drawn: every day at scale, days in the admin's language.
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch, setupProviders } from "../../test-support.ts";
import { dayFormatter, everyDay } from "./dashboard.ts";

const tokens = { accessToken: "access-1", refreshToken: "refresh-1" };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("dashboard call", () => {
  it("asks for the event's real or testing figures and reads them in camelCase", async () => {
    const calls = mockFetch((call) =>
      jsonResponse({
        event_id: 3,
        preview: call.query.get("preview") === "true",
        currency: "CHF",
        total_sales: 12500,
        total_refunded: 2500,
        validated_baskets: 4,
        refunded_baskets: 1,
        currently_purchasing: 2,
        sales_over_time: [{ date: "2025-03-01", sales: 12500, refunds: 2500, baskets: 4 }],
        sales_per_article: [{ node_id: 8, title: "Adult", count: 5, amount: 12500 }],
      }),
    );
    const { dataProvider } = setupProviders(tokens);
    const { data } = await dataProvider.getEventDashboard(3, true);
    expect(calls[0]?.path).toBe("/events/3/dashboard");
    expect(calls[0]?.query.get("preview")).toBe("true");
    expect(data).toMatchObject({ preview: true, totalSales: 12500, currentlyPurchasing: 2 });
    expect(data.salesPerArticle[0]).toEqual({ nodeId: 8, title: "Adult", count: 5, amount: 12500 });
    await dataProvider.getEventDashboard(3, false);
    expect(calls[1]?.query.get("preview")).toBe("false");
  });

  it("rejects with the API's status for another unit's event", async () => {
    mockFetch(() => jsonResponse({ errors: ["Not found"] }, 404));
    const { dataProvider } = setupProviders(tokens);
    await expect(dataProvider.getEventDashboard(99, false)).rejects.toMatchObject({ status: 404 });
  });
});

describe("sales over time", () => {
  it("fills the days without sales between the first and the last with zeros", () => {
    const days = everyDay([
      { date: "2025-02-27", sales: 1000, refunds: 0, baskets: 1 },
      { date: "2025-03-02", sales: 500, refunds: 200, baskets: 1 },
    ]);
    expect(days.map((day) => day.date)).toEqual(["2025-02-27", "2025-02-28", "2025-03-01", "2025-03-02"]);
    expect(days[1]).toEqual({ date: "2025-02-28", sales: 0, refunds: 0, baskets: 0 });
    expect(days[3]).toEqual({ date: "2025-03-02", sales: 500, refunds: 200, baskets: 1 });
  });

  it("keeps the days as given beyond the span a chart can show, and nothing when nothing was sold", () => {
    const apart = [
      { date: "2023-01-01", sales: 1, refunds: 0, baskets: 1 },
      { date: "2025-01-01", sales: 2, refunds: 0, baskets: 1 },
    ];
    expect(everyDay(apart)).toEqual(apart);
    expect(everyDay([])).toEqual([]);
  });

  it("writes a day as the API counts it (UTC) in the admin's language", () => {
    expect(dayFormatter("fr", "long")("2025-03-01")).toBe("1 mars 2025");
    expect(dayFormatter("en", "long")("2025-03-01")).toBe("Mar 1, 2025");
    expect(dayFormatter("en", "short")("2025-12-31")).toBe("Dec 31");
  });
});
