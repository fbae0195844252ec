import { describe, expect, it } from "vitest";
import { eventWindows, provesEmail, ticketOfficePath, ticketOfficeUrl } from "./ticket-office.ts";

describe("ticket-office addresses", () => {
  it("keeps the preview segment of testing mode and encodes the event's path", () => {
    expect(ticketOfficePath("demo", false)).toBe("/tickets/demo");
    expect(ticketOfficePath("demo", true, "checkout/payment-method")).toBe(
      "/tickets/preview/demo/checkout/payment-method",
    );
    expect(ticketOfficePath("a b/c", false, "buy")).toBe("/tickets/a%20b%2Fc/buy");
    expect(ticketOfficeUrl("https://t.example", { frontendPath: "demo" }, true, "completion")).toBe(
      "https://t.example/tickets/preview/demo/completion",
    );
  });
});

describe("event windows", () => {
  const event = {
    status: "public" as const,
    registrationsStartDate: "2027-01-01T00:00:00.000Z",
    registrationsEndDate: "2027-02-01T00:00:00.000Z",
    paymentsStartDate: null,
    paymentsEndDate: "2027-01-15T00:00:00.000Z",
  };

  it("opens registrations and payments within their dates, only for a public event", () => {
    expect(eventWindows(event, new Date("2027-01-10T00:00:00Z"))).toEqual({
      areRegistrationsAllowed: true,
      isBasketItemModificationAllowed: true,
      arePaymentsAllowed: true,
    });
    expect(eventWindows(event, new Date("2027-01-20T00:00:00Z")).arePaymentsAllowed).toBe(false);
    expect(eventWindows(event, new Date("2026-12-31T00:00:00Z")).areRegistrationsAllowed).toBe(false);
    expect(eventWindows({ ...event, status: "draft" }, new Date("2027-01-10T00:00:00Z")).arePaymentsAllowed).toBe(
      false,
    );
  });
});

describe("provesEmail", () => {
  it("is true for a followed email link and a third party's signature, never for a guest or a link not followed", () => {
    const login = (
      method: "anonymous" | "trusted_email" | "third_party",
      validatedAt: string | null,
      email = "a@b.ch",
    ) => provesEmail({ method, email, validatedAt });
    expect(login("trusted_email", "2026-11-01T10:00:00.000Z")).toBe(true);
    expect(login("third_party", null)).toBe(true);
    expect(login("trusted_email", null)).toBe(false);
    expect(login("anonymous", null)).toBe(false);
    expect(provesEmail({ method: "third_party", email: null, validatedAt: null })).toBe(false);
  });
});
