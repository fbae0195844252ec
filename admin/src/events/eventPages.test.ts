import { describe, expect, it } from "vitest";
import { EVENT_PAGES, eventPagePath } from "./eventPages.ts";

describe("eventPagePath", () => {
  it("puts every page under the event's path", () => {
    expect(EVENT_PAGES.map((page) => eventPagePath("/events/7", page, false))).toEqual([
      "/events/7/edit",
      "/events/7/settings",
      "/events/7/communication",
      "/events/7/baskets",
      "/events/7/dashboard",
      "/events/7/stocks-table",
      "/events/7/invoices",
      "/events/7/check-in",
      "/events/7/waiting-room",
      "/events/7/waiting-list",
    ]);
  });

  it("carries the preview flag only to the sales pages that read it", () => {
    expect(eventPagePath("/events/7", "dashboard", true)).toBe("/events/7/dashboard?preview=true");
    expect(eventPagePath("/events/7", "invoices", true)).toBe("/events/7/invoices");
    expect(eventPagePath("/events/7", "check-in", true)).toBe("/events/7/check-in?preview=true");
    expect(eventPagePath("/events/7", "waiting-list", true)).toBe("/events/7/waiting-list?preview=true");
    expect(eventPagePath("/events/7", "waiting-room", true)).toBe("/events/7/waiting-room");
    expect(eventPagePath("/events/7", "settings", true)).toBe("/events/7/settings");
  });
});
