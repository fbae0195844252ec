import { describe, expect, it } from "vitest";
import { formatDateRange } from "./format";

describe("formatDateRange", () => {
  it("writes both ends in the event's time zone with plain spaces around the dash", () => {
    expect(formatDateRange("2027-06-12T16:00:00Z", "2027-06-13T23:00:00Z", "en")).toBe(
      "12 June 2027 at 18:00 – 14 June 2027 at 01:00",
    );
    expect(formatDateRange("2027-06-12T16:00:00Z", "2027-06-13T23:00:00Z", "fr")).toBe(
      "12 juin 2027 à 18:00 – 14 juin 2027 à 01:00",
    );
  });
});
