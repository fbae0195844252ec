import { describe, expect, it } from "vitest";
import { endNotBefore } from "./settingsPages.ts";

describe("endNotBefore", () => {
  const validate = endNotBefore("registrationsStartDate");

  it("refuses an end before the start", () => {
    expect(validate("2030-01-01T10:00:00.000Z", { registrationsStartDate: "2030-01-02T10:00:00.000Z" })).toBe(
      "admin.validation.endBeforeStart",
    );
  });

  it("accepts an end at or after the start", () => {
    expect(
      validate("2030-01-02T10:00:00.000Z", { registrationsStartDate: "2030-01-02T10:00:00.000Z" }),
    ).toBeUndefined();
    expect(
      validate("2030-01-03T10:00:00.000Z", { registrationsStartDate: "2030-01-02T10:00:00.000Z" }),
    ).toBeUndefined();
  });

  it("leaves an open window alone", () => {
    expect(validate(null, { registrationsStartDate: "2030-01-02T10:00:00.000Z" })).toBeUndefined();
    expect(validate("2030-01-01T10:00:00.000Z", { registrationsStartDate: null })).toBeUndefined();
    expect(validate("2030-01-01T10:00:00.000Z", {})).toBeUndefined();
  });
});
