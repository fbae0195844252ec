// Test data for the door's answer: a ticket as `POST /events/:id/check-ins` gives it, the evening's figures, and the
// ticket's first check-in (17:05 UTC, by the door's account).
import type { CheckInResult } from "@ticketing/shared/schemas/check-ins";

export const ticket: NonNullable<CheckInResult["ticket"]> = {
  id: 9,
  basketId: 4,
  reference: "AB12CD",
  title: "Gala dinner",
  holderName: "Ada Lovelace",
  testing: false,
};

export const counts: CheckInResult["counts"] = { sold: 10, checkedIn: 3 };

export const firstCheckIn: NonNullable<CheckInResult["checkIn"]> = {
  checkedInAt: "2026-11-24T17:05:00.000Z",
  checkedInById: 2,
  checkedInByEmail: "door@example.org",
  deviceId: "door-a-0001",
};
