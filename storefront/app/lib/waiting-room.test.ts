import { describe, expect, it } from "vitest";
import { isTurn, roundedWait } from "./waiting-room";

describe("a waiting room's estimated wait, as the page says it", () => {
  it("is under a minute below 60 seconds, whole minutes from there", () => {
    expect(roundedWait(0)).toEqual({ unit: "underAMinute" });
    expect(roundedWait(59)).toEqual({ unit: "underAMinute" });
    expect(roundedWait(60)).toEqual({ unit: "minutes", count: 1 });
    expect(roundedWait(89)).toEqual({ unit: "minutes", count: 1 });
    expect(roundedWait(150)).toEqual({ unit: "minutes", count: 3 });
  });

  it("counts minutes up to an hour and a half, then hours", () => {
    expect(roundedWait(89 * 60)).toEqual({ unit: "minutes", count: 89 });
    expect(roundedWait(90 * 60)).toEqual({ unit: "hours", count: 2 });
    expect(roundedWait(5 * 3600 + 20 * 60)).toEqual({ unit: "hours", count: 5 });
  });
});

describe("whose turn it is", () => {
  it("lets the admitted choose tickets, and everyone once no place is needed", () => {
    expect(isTurn({ state: "admitted" })).toBe(true);
    expect(isTurn({ state: "open" })).toBe(true);
  });

  it("keeps everyone else in the room, a lapsed buyer too", () => {
    for (const state of ["before_opening", "waiting", "paused", "lapsed"] as const)
      expect(isTurn({ state })).toBe(false);
  });
});
