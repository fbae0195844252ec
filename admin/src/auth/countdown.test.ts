import { describe, expect, it } from "vitest";
import { secondsLeft } from "./countdown.ts";

describe("secondsLeft", () => {
  it("starts at the full duration", () => {
    expect(secondsLeft(1_000, 1_000, 5)).toBe(5);
  });

  it("rounds up partial seconds, so 5 shows until a full second has gone", () => {
    expect(secondsLeft(1_000, 1_900, 5)).toBe(5);
    expect(secondsLeft(1_000, 2_000, 5)).toBe(4);
    expect(secondsLeft(1_000, 5_500, 5)).toBe(1);
  });

  it("ends at 0 and stays there", () => {
    expect(secondsLeft(1_000, 6_000, 5)).toBe(0);
    expect(secondsLeft(1_000, 60_000, 5)).toBe(0);
  });
});
