import { describe, expect, it } from "vitest";
import { holdTimerOf, holdWarningFrom } from "./hold-timer";

const END = "2030-04-12T18:30:00.000Z";
const item = { id: 1 } as never;
const basket = { status: "new" as const, items: [item], expiresAt: END, holdRenewalsLeft: 10 };
const at = (iso: string) => new Date(iso);

describe("holdWarningFrom", () => {
  it("warns in the last third of the reservation time, at most its last 10 minutes", () => {
    expect(holdWarningFrom(END, 30).toISOString()).toBe("2030-04-12T18:20:00.000Z");
    expect(holdWarningFrom(END, 6).toISOString()).toBe("2030-04-12T18:28:00.000Z");
    expect(holdWarningFrom(END, 120).toISOString()).toBe("2030-04-12T18:20:00.000Z");
    expect(holdWarningFrom(END, 1).toISOString()).toBe("2030-04-12T18:29:40.000Z");
  });
});

describe("holdTimerOf", () => {
  it("says when the hold ends, whether that is near, and how many renewals are left", () => {
    expect(holdTimerOf(basket, 30, at("2030-04-12T18:05:00.000Z"))).toEqual({
      endsAt: END,
      warnFrom: "2030-04-12T18:20:00.000Z",
      isNear: false,
      renewalsLeft: 10,
      minutes: 30,
    });
    expect(holdTimerOf(basket, 30, at("2030-04-12T18:20:00.000Z"))?.isNear).toBe(true);
    // Ended but not swept yet: still near, a renewal keeps it.
    expect(holdTimerOf(basket, 30, at("2030-04-12T18:31:00.000Z"))?.isNear).toBe(true);
    expect(holdTimerOf({ ...basket, holdRenewalsLeft: 0 }, 30, at(END))?.renewalsLeft).toBe(0);
  });

  it("shows nothing without a held basket, or once it is being paid", () => {
    const now = at("2030-04-12T18:05:00.000Z");
    expect(holdTimerOf(null, 30, now)).toBeNull();
    expect(holdTimerOf({ ...basket, items: [] }, 30, now)).toBeNull();
    expect(holdTimerOf({ ...basket, status: "payment_in_progress" }, 30, now)).toBeNull();
  });
});
