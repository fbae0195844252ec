import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OFF_SITE_TARGETS, ON_SITE_TARGETS } from "./site-path.fixtures.ts";
import { sitePath } from "./site-path.ts";

/** Where a browser on https://tickets.example goes when redirected to `location`. */
const hostReached = (location: string) => new URL(location, "https://tickets.example/tickets/demo/login").host;

describe("sitePath", () => {
  it.each(OFF_SITE_TARGETS)("refuses %s", (_, value) => {
    expect(sitePath(value)).toBeNull();
  });

  it.each(ON_SITE_TARGETS)("keeps %s, normalised", (_, value, normalised) => {
    expect(sitePath(value)).toBe(normalised);
    expect(hostReached(normalised)).toBe("tickets.example");
  });

  it.each([
    ["a number", 42],
    ["an array", ["/tickets/demo/buy"]],
    ["null", null],
  ])("refuses %s", (_, value) => {
    expect(sitePath(value)).toBeNull();
  });

  it("never returns a target that leaves the site, and its result is already normalised", () => {
    const piece = fc.constantFrom("/", "\\", ".", "..", "%2e", "%2E", "%2f", "%5c", "\t", "\n", ":", "?", "#", "@");
    const target = fc.oneof(
      fc.string(),
      fc.array(fc.oneof(piece, fc.string({ maxLength: 3 })), { maxLength: 8 }).map((parts) => `/${parts.join("")}`),
    );
    fc.assert(
      fc.property(target, (value) => {
        const path = sitePath(value);
        if (path === null) return;
        expect(path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\")).toBe(true);
        expect(hostReached(path)).toBe("tickets.example");
        expect(sitePath(path)).toBe(path);
      }),
      { numRuns: 2_000 },
    );
  });
});
