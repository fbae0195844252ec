import type { CheckInResult } from "@ticketing/shared/schemas/check-ins";
import { describe, expect, it } from "vitest";
import { counts, firstCheckIn, ticket } from "./checkIn.fixtures.ts";
import { CHECK_IN_TONES, headlineOf, isNewCameraCode, normaliseCode, refusalKey } from "./checkInResult.ts";

const at = firstCheckIn.checkedInAt;
const time = (iso: string) => `at(${iso})`;

describe("headlineOf", () => {
  it("says checked in for a ticket let in now", () => {
    const result: CheckInResult = {
      outcome: "checked_in",
      reason: null,
      ticket,
      checkIn: firstCheckIn,
      counts,
    };
    expect(headlineOf(result, false, time)).toEqual({ key: "admin.checkIn.outcome.checkedIn", detail: null });
  });

  it("says when and by whom a ticket was first checked in, and only when once the account is gone", () => {
    const result: CheckInResult = {
      outcome: "already_checked_in",
      reason: null,
      ticket,
      checkIn: firstCheckIn,
      counts,
    };
    expect(headlineOf(result, false, time)).toEqual({
      key: "admin.checkIn.outcome.already",
      detail: { key: "admin.checkIn.outcome.atBy", options: { time: `at(${at})`, email: "door@example.org" } },
    });
    const gone = {
      ...result,
      checkIn: { checkedInAt: at, checkedInById: null, checkedInByEmail: null, deviceId: null },
    };
    expect(headlineOf(gone, false, time).detail).toEqual({
      key: "admin.checkIn.outcome.at",
      options: { time: `at(${at})` },
    });
  });

  it("gives the reason of a refusal, a ticket of the other mode told from the door's side", () => {
    const refused = (reason: CheckInResult["reason"]): CheckInResult => ({
      outcome: "refused",
      reason,
      ticket: null,
      checkIn: null,
      counts,
    });
    expect(headlineOf(refused("refunded"), false, time)).toEqual({
      key: "admin.checkIn.outcome.refused",
      detail: { key: "admin.checkIn.reasons.refunded", options: {} },
    });
    expect(headlineOf(refused("invalid_code"), false, time).detail?.key).toBe("admin.checkIn.reasons.invalid_code");
    expect(refusalKey("wrong_mode", false)).toBe("admin.checkIn.reasons.testAtDoor");
    expect(refusalKey("wrong_mode", true)).toBe("admin.checkIn.reasons.realInPreview");
  });

  it("colours the three outcomes apart: green, amber, red", () => {
    expect(CHECK_IN_TONES).toEqual({ checked_in: "success", already_checked_in: "warning", refused: "error" });
  });
});

describe("normaliseCode", () => {
  it("joins the printed lines of a code and drops the spaces around it", () => {
    expect(normaliseCode("  eyJlIjo\nxLCJi.Ijo\r\n yfQ  ")).toBe("eyJlIjoxLCJi.IjoyfQ");
  });
});

describe("isNewCameraCode", () => {
  it("sends a code the camera reads once, not again while the same ticket is held up, nor during a scan", () => {
    expect(isNewCameraCode("abc.def", null, false)).toBe(true);
    expect(isNewCameraCode("abc.def", "abc.def", false)).toBe(false);
    expect(isNewCameraCode("ghi.jkl", "abc.def", false)).toBe(true);
    expect(isNewCameraCode("ghi.jkl", "abc.def", true)).toBe(false);
  });
});
