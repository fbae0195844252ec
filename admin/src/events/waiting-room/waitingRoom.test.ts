import {
  DEFAULT_WAITING_ROOM_ADMISSION_MINUTES,
  DEFAULT_WAITING_ROOM_RATE_PER_MINUTE,
} from "@ticketing/shared/constants";
import { describe, expect, it } from "vitest";
import { isRoomLockedFor, newRoomSettings, waitingRoomActions } from "./waitingRoom.ts";

describe("waitingRoomActions", () => {
  it("offers Open now only before the opening", () => {
    expect(waitingRoomActions({ status: "running", isOpen: false })).toEqual(["open-now", "pause", "end"]);
    expect(waitingRoomActions({ status: "running", isOpen: true })).toEqual(["pause", "end"]);
  });

  it("offers Resume instead of Pause while paused, and nothing once ended", () => {
    expect(waitingRoomActions({ status: "paused", isOpen: true })).toEqual(["resume", "end"]);
    expect(waitingRoomActions({ status: "paused", isOpen: false })).toEqual(["open-now", "resume", "end"]);
    expect(waitingRoomActions({ status: "ended", isOpen: true })).toEqual([]);
  });
});

describe("newRoomSettings", () => {
  it("opens at the next full hour with the default rate and admission time", () => {
    expect(newRoomSettings(new Date("2026-11-28T10:20:30.000Z"))).toEqual({
      opensAt: "2026-11-28T11:00:00.000Z",
      ratePerMinute: DEFAULT_WAITING_ROOM_RATE_PER_MINUTE,
      admissionMinutes: DEFAULT_WAITING_ROOM_ADMISSION_MINUTES,
    });
    expect(newRoomSettings(new Date("2026-11-28T23:00:00.000Z")).opensAt).toBe("2026-11-29T00:00:00.000Z");
  });
});

describe("isRoomLockedFor", () => {
  const organiser = { id: 1, isSuperuser: false };
  it("lets organisers run the room of a draft or a public event", () => {
    expect(isRoomLockedFor({ status: "draft" }, organiser)).toBe(false);
    expect(isRoomLockedFor({ status: "public" }, organiser)).toBe(false);
  });

  it("only shows a closed or archived event's room, but to superusers", () => {
    expect(isRoomLockedFor({ status: "closed" }, organiser)).toBe(true);
    expect(isRoomLockedFor({ status: "archived" }, organiser)).toBe(true);
    expect(isRoomLockedFor({ status: "closed" }, { id: 2, isSuperuser: true })).toBe(false);
  });
});
