import { describe, expect, it } from "vitest";
import { formatDateRange, formatTime } from "./format";

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

describe("formatters kept per language", () => {
  it("answer each call in its own language, whichever language came before", () => {
    const start = "2027-06-12T16:00:00Z";
    const end = "2027-06-12T20:30:00Z";
    const inTurn = ["fr", "en", "fr", "en"].map((language) => [
      formatDateRange(start, end, language),
      formatTime(end, language),
    ]);
    expect(inTurn[0]).toEqual(inTurn[2]);
    expect(inTurn[1]).toEqual(inTurn[3]);
    expect(inTurn[0]?.[0]).toContain("juin");
    expect(inTurn[1]?.[0]).toContain("June");
    expect(inTurn.map(([, time]) => time)).toEqual(["22:30", "22:30", "22:30", "22:30"]);
  });
});

describe("formatDateRange's written ranges", () => {
  it("are kept per language and ends: the same ends in the other language, or other ends, are written anew", () => {
    const en = formatDateRange("2027-06-12T16:00:00Z", "2027-06-12T20:00:00Z", "en");
    expect(formatDateRange("2027-06-12T16:00:00Z", "2027-06-12T20:00:00Z", "fr")).toContain("juin");
    expect(formatDateRange("2027-06-12T16:00:00Z", "2027-06-12T20:00:00Z", "en")).toBe(en);
    expect(formatDateRange("2027-07-12T16:00:00Z", "2027-07-12T20:00:00Z", "en")).toContain("July");
  });

  it("stay right once more ranges were written than are kept", () => {
    for (let day = 1; day <= 1100; day++) {
      const start = new Date(Date.UTC(2027, 0, day, 16)).toISOString();
      formatDateRange(start, start, "en");
    }
    expect(formatDateRange("2027-06-12T16:00:00Z", "2027-06-13T23:00:00Z", "fr")).toBe(
      "12 juin 2027 à 18:00 – 14 juin 2027 à 01:00",
    );
  });
});
