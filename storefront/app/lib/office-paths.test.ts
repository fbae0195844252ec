import { describe, expect, it } from "vitest";
import { locateOffice, officeHref } from "./office-paths";

describe("locateOffice", () => {
  it("reads the public office", () => {
    expect(locateOffice("/tickets/demo/buy", "demo")).toEqual({ path: "demo", testing: false, base: "/tickets/demo" });
  });

  it("reads testing mode from the preview segment and keeps it in links", () => {
    const office = locateOffice("/tickets/preview/demo/checkout/payment-method", "demo");
    expect(office.testing).toBe(true);
    expect(officeHref(office.base, "completion")).toBe("/tickets/preview/demo/completion");
  });

  it("does not mistake a path merely starting like the preview prefix", () => {
    expect(locateOffice("/tickets/preview/demo2", "demo").testing).toBe(false);
  });
});
