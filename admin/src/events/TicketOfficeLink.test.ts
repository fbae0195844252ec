import type { EventStatus } from "@ticketing/shared/constants";
import { describe, expect, it } from "vitest";
import { ticketOfficeHref } from "./TicketOfficeLink.tsx";

const event = (status: EventStatus) => ({
  status,
  ticketOfficeUrl: "https://tickets.example.org/tickets/fair",
  ticketOfficeTestingUrl: "https://tickets.example.org/tickets/preview/fair",
});

describe("ticketOfficeHref", () => {
  it("offers the public ticket office only while the event is public", () => {
    expect(ticketOfficeHref(event("public"), false)).toBe("https://tickets.example.org/tickets/fair");
    for (const status of ["draft", "closed", "archived"] as const)
      expect(ticketOfficeHref(event(status), false)).toBeUndefined();
  });

  it("always offers the preview to staff", () => {
    for (const status of ["draft", "public", "closed", "archived"] as const)
      expect(ticketOfficeHref(event(status), true)).toBe("https://tickets.example.org/tickets/preview/fair");
  });

  it("offers nothing before the event is loaded", () => {
    expect(ticketOfficeHref(undefined, true)).toBeUndefined();
  });
});
