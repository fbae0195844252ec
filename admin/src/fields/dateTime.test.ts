import { format, parse } from "date-fns";
import { enUS, frCH } from "date-fns/locale";
import { describe, expect, it } from "vitest";
import { isoToPickerValue, PICKER_FORMATS, pickerValueToIso, TO_THE_MINUTE, validateDateTime } from "./dateTime.ts";

describe("date-time input values", () => {
  it("sends a picked date as ISO 8601 in UTC and a cleared one as null", () => {
    const picked = new Date(2026, 11, 24, 18, 0);
    expect(pickerValueToIso(picked)).toBe(picked.toISOString());
    expect(pickerValueToIso(null)).toBeNull();
  });

  it("shows the wire's ISO value as the same instant, and nothing for empty", () => {
    expect(isoToPickerValue("2026-12-24T17:00:00.000Z")?.toISOString()).toBe("2026-12-24T17:00:00.000Z");
    expect(isoToPickerValue(null)).toBeNull();
    expect(isoToPickerValue("")).toBeNull();
  });

  it("holds the form back while a date is half typed, not before or after", () => {
    const halfTyped = pickerValueToIso(new Date(Number.NaN));
    expect(validateDateTime(halfTyped)).toBe("admin.dateTimeInput.invalid");
    expect(validateDateTime("2026-12-24T17:00:00.000Z")).toBeUndefined();
    expect(validateDateTime(null)).toBeUndefined();
  });
});

describe("date-time formats", () => {
  const christmasEve = new Date(2026, 11, 24, 18, 5);

  it("writes and reads French dates as dd.mm.yyyy HH:mm", () => {
    expect(format(christmasEve, PICKER_FORMATS.fr, { locale: frCH })).toBe("24.12.2026 18:05");
    expect(parse("24.12.2026 18:05", PICKER_FORMATS.fr, new Date(), { locale: frCH })).toEqual(christmasEve);
  });

  it("shows moments in lists as the pickers write them", () => {
    expect(christmasEve.toLocaleString("fr-CH", TO_THE_MINUTE)).toBe("24.12.2026 18:05");
    expect(christmasEve.toLocaleString("en-US", TO_THE_MINUTE)).toBe("12/24/2026, 06:05 PM");
  });

  it("writes English dates as en-US does", () => {
    expect(format(christmasEve, PICKER_FORMATS.en, { locale: enUS })).toBe("12/24/2026 06:05 PM");
  });
});
