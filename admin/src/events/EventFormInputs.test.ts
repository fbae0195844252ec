import { describe, expect, it } from "vitest";
import { localDateTimeToIso, validateEndAfterStart } from "./EventFormInputs.tsx";

describe("event dates", () => {
  it("sends a datetime-local value as an ISO 8601 UTC string", () => {
    const iso = localDateTimeToIso("2026-12-24T18:00");
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(new Date(iso ?? "").getTime()).toBe(new Date("2026-12-24T18:00").getTime());
    expect(localDateTimeToIso("")).toBeNull();
  });

  it("refuses an end before the start", () => {
    const startDate = "2026-12-24T18:00:00.000Z";
    expect(validateEndAfterStart("2026-12-24T17:00:00.000Z", { startDate })).toBe("admin.validation.endBeforeStart");
    expect(validateEndAfterStart("2026-12-24T23:00:00.000Z", { startDate })).toBeUndefined();
    expect(validateEndAfterStart("2026-12-24T23:00:00.000Z", {})).toBeUndefined();
  });
});
