import { OFF_SITE_TARGETS, ON_SITE_TARGETS } from "@ticketing/shared/site-path.fixtures";
import { describe, expect, it } from "vitest";
import { currentPath, safeNextUrl } from "./next-url";

describe("safeNextUrl", () => {
  const fallback = "/tickets/demo/buy";

  it("keeps a path of this site with its query", () => {
    expect(safeNextUrl("/tickets/preview/demo/checkout/payment-method?x=1", fallback)).toBe(
      "/tickets/preview/demo/checkout/payment-method?x=1",
    );
  });

  it.each([...OFF_SITE_TARGETS, ["missing", null] as const, ["not a string", ["/tickets/demo"]] as const])(
    "refuses %s",
    (_, value) => {
      expect(safeNextUrl(value, fallback)).toBe(fallback);
    },
  );

  it.each(ON_SITE_TARGETS)("follows %s in its normalised form", (_, value, normalised) => {
    expect(safeNextUrl(value, fallback)).toBe(normalised);
  });
});

describe("currentPath", () => {
  it("keeps path and query but drops the router's index marker", () => {
    expect(currentPath(new Request("http://localhost/tickets/demo/buy?index&a=1"))).toBe("/tickets/demo/buy?a=1");
  });
});
