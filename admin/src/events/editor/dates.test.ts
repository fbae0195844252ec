import { describe, expect, it } from "vitest";
import { isoToLocalInput, localInputToIso } from "./dates.ts";

describe("datetime-local conversions", () => {
  it("round-trips through the local time zone", () => {
    const iso = "2030-03-01T18:00:00.000Z";
    expect(localInputToIso(isoToLocalInput(iso))).toBe(iso);
  });
  it("treats empty and unreadable values as no date", () => {
    expect(isoToLocalInput(null)).toBe("");
    expect(isoToLocalInput("nope")).toBe("");
    expect(localInputToIso("")).toBeNull();
    expect(localInputToIso("31/02")).toBeNull();
  });
});
