import { describe, expect, it } from "vitest";
import { validateEndAfterStart } from "./EventFormInputs.tsx";

describe("event dates", () => {
  it("refuses an end before the start", () => {
    const startDate = "2026-12-24T18:00:00.000Z";
    expect(validateEndAfterStart("2026-12-24T17:00:00.000Z", { startDate })).toBe("admin.validation.endBeforeStart");
    expect(validateEndAfterStart("2026-12-24T23:00:00.000Z", { startDate })).toBeUndefined();
    expect(validateEndAfterStart("2026-12-24T23:00:00.000Z", {})).toBeUndefined();
  });
});
