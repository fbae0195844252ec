import { describe, expect, it } from "vitest";
import { decodingScales } from "./qrReader.ts";

describe("the sizes a photo of a ticket is read at", () => {
  it("reads a ticket rendered 800 px wide as it is, then at half its size", () => {
    expect(decodingScales(800, 1132)).toEqual([1, 0.5]);
  });

  it("reads a phone's photo at most 2000 px long first, then smaller copies down to 300 px", () => {
    expect(decodingScales(4000, 3000)).toEqual([0.5, 0.25, 0.125]);
  });

  it("reads a small image once, as it is", () => {
    expect(decodingScales(400, 300)).toEqual([1]);
  });
});
