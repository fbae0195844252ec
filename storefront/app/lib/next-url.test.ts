import { describe, expect, it } from "vitest";
import { currentPath, safeNextUrl } from "./next-url";

describe("safeNextUrl", () => {
  const fallback = "/tickets/demo/buy";

  it("keeps a path of this site with its query", () => {
    expect(safeNextUrl("/tickets/preview/demo/checkout/payment-method?x=1", fallback)).toBe(
      "/tickets/preview/demo/checkout/payment-method?x=1",
    );
  });

  it.each([
    ["missing", null],
    ["empty", ""],
    ["absolute URL", "https://evil.example/tickets"],
    ["protocol-relative URL", "//evil.example/x"],
    ["backslash trick", "/\\evil.example"],
    ["javascript URL", "javascript:alert(1)"],
    ["relative path", "buy"],
    ["control character", "/tickets\n/demo"],
    ["not a string", ["/tickets/demo"]],
  ])("refuses a %s", (_, value) => {
    expect(safeNextUrl(value, fallback)).toBe(fallback);
  });

  it("normalises dot segments instead of following them off the site", () => {
    expect(safeNextUrl("/tickets/../../admin", fallback)).toBe("/admin");
  });
});

describe("currentPath", () => {
  it("keeps path and query but drops the router's index marker", () => {
    expect(currentPath(new Request("http://localhost/tickets/demo/buy?index&a=1"))).toBe("/tickets/demo/buy?a=1");
  });
});
