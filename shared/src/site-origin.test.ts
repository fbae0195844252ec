import { describe, expect, it } from "vitest";
import { siteOrigin } from "./site-origin.ts";

const PUBLIC_URL = "https://tickets.example.org";

describe("siteOrigin", () => {
  it("accepts the request's own host, also when a proxy ended TLS in front of it", () => {
    expect(siteOrigin("http://127.0.0.1:3000", "http://127.0.0.1:3000/language", "http://localhost:3000")).toBe(
      "http://127.0.0.1:3000",
    );
    expect(siteOrigin("https://www.tickets.example.org", "http://www.tickets.example.org/x", PUBLIC_URL)).toBe(
      "https://www.tickets.example.org",
    );
  });

  it("accepts PUBLIC_URL's origin on a request whose Host a proxy rewrote", () => {
    expect(siteOrigin(PUBLIC_URL, "http://app-7:3000/tickets/demo/buy", PUBLIC_URL)).toBe(PUBLIC_URL);
    expect(siteOrigin("http://localhost:3000", "http://10.0.0.5:3000/", "http://localhost:3000/")).toBe(
      "http://localhost:3000",
    );
  });

  it.each([
    ["no origin", undefined],
    ["an empty one", ""],
    ["an opaque origin", "null"],
    ["another site", "https://evil.example"],
    ["a sibling host", "https://shop.tickets.example.org"],
    ["another port of the host", "http://127.0.0.1:4000"],
    ["PUBLIC_URL's host on another port", "https://tickets.example.org:8443"],
    ["a path after the origin", "http://127.0.0.1:3000/x"],
    ["user info", "http://user@127.0.0.1:3000"],
    ["another scheme", "ftp://127.0.0.1:3000"],
    ["not a URL", "127.0.0.1:3000"],
  ])("refuses %s", (_, origin) => {
    expect(siteOrigin(origin, "http://127.0.0.1:3000/tickets/demo/buy", PUBLIC_URL)).toBeNull();
  });
});
