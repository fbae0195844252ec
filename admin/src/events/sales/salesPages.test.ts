// Moving between the event's sales pages keeps the testing (preview) flag where the page reads it.
import { describe, expect, it } from "vitest";
import { SALES_PAGES, salesPagePath } from "./salesPages.ts";

describe("sales pages", () => {
  it("carries preview=true to the baskets list, the dashboard and the stocks table once it is on", () => {
    expect(salesPagePath("/admin/events/7", "baskets", true)).toBe("/admin/events/7/baskets?preview=true");
    expect(salesPagePath("/admin/events/7", "dashboard", true)).toBe("/admin/events/7/dashboard?preview=true");
    expect(salesPagePath("/admin/events/7", "stocks-table", true)).toBe("/admin/events/7/stocks-table?preview=true");
  });

  it("leaves the flag out when it is off, and on the invoices list, which filters testing invoices itself", () => {
    for (const page of SALES_PAGES)
      expect(salesPagePath("/admin/events/7", page, false)).toBe(`/admin/events/7/${page}`);
    expect(salesPagePath("/admin/events/7", "invoices", true)).toBe("/admin/events/7/invoices");
  });
});
