// @vitest-environment jsdom
// What a door keeps on its device (docs/decisions/0048): its id made once, its scans surviving a reload (a new store
// on the same storage), a second scan of a ticket refused on the same device, the snapshot's refunded and checked-in
// tickets told apart, and the API's answers marking the waiting scans sent.
import { afterEach, describe, expect, it } from "vitest";
import { DoorStore, deviceIdOf, offlineVerdict } from "./offlineDoor.ts";

afterEach(() => window.localStorage.clear());

const claims = (itemId: number, eventId = 7) => ({ eventId, basketId: 3, itemId });

describe("the door's device store", () => {
  it("makes the device's id once and keeps it", () => {
    const first = deviceIdOf(window.localStorage);
    expect(first).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(deviceIdOf(window.localStorage, () => "another-one")).toBe(first);
  });

  it("keeps waiting scans across a reload and refuses a second scan of the same ticket on this device", () => {
    const door = new DoorStore(window.localStorage, 7, false);
    expect(offlineVerdict(claims(11), 7, door.read())).toEqual({ kind: "accepted", itemId: 11 });
    door.add({ code: "code-11", itemId: 11, scannedAt: "2030-07-01T20:00:00.000Z", state: "waiting" });

    const reloaded = new DoorStore(window.localStorage, 7, false);
    expect(reloaded.waiting()).toHaveLength(1);
    expect(offlineVerdict(claims(11), 7, reloaded.read())).toEqual({
      kind: "alreadyHere",
      at: "2030-07-01T20:00:00.000Z",
    });
    expect(offlineVerdict(claims(12), 7, reloaded.read())).toEqual({ kind: "accepted", itemId: 12 });
    // Another event's door, and the preview's, keep their own scans.
    expect(new DoorStore(window.localStorage, 8, false).waiting()).toEqual([]);
    expect(new DoorStore(window.localStorage, 7, true).waiting()).toEqual([]);
  });

  it("refuses a code that is not genuine or of another event", () => {
    const state = new DoorStore(window.localStorage, 7, false).read();
    expect(offlineVerdict(null, 7, state)).toEqual({ kind: "refused", reason: "invalid_code" });
    expect(offlineVerdict(claims(11, 8), 7, state)).toEqual({ kind: "refused", reason: "other_event" });
  });

  it("with a snapshot, refuses a ticket not sold then and says one in then is already in", () => {
    const door = new DoorStore(window.localStorage, 7, false);
    door.setSnapshot({
      takenAt: "2030-07-01T19:00:00.000Z",
      tickets: [
        { id: 11, checkedInAt: null },
        { id: 12, checkedInAt: "2030-07-01T18:30:00.000Z" },
      ],
    });
    const state = door.read();
    expect(offlineVerdict(claims(11), 7, state)).toEqual({ kind: "accepted", itemId: 11 });
    expect(offlineVerdict(claims(12), 7, state)).toEqual({ kind: "alreadyBefore", at: "2030-07-01T18:30:00.000Z" });
    expect(offlineVerdict(claims(13), 7, state)).toEqual({ kind: "notSold", snapshotAt: "2030-07-01T19:00:00.000Z" });
  });

  it("marks the scans the API answered as sent, and a refused one no longer blocks the ticket", () => {
    const door = new DoorStore(window.localStorage, 7, false);
    door.add({ code: "code-11", itemId: 11, scannedAt: "2030-07-01T20:00:00.000Z", state: "waiting" });
    door.add({ code: "code-12", itemId: 12, scannedAt: "2030-07-01T20:01:00.000Z", state: "waiting" });
    door.add({ code: "code-13", itemId: 13, scannedAt: "2030-07-01T20:02:00.000Z", state: "waiting" });
    door.markSent([
      { code: "code-11", scannedAt: "2030-07-01T20:00:00.000Z", outcome: "checked_in", reason: null, double: false },
      { code: "code-12", scannedAt: "2030-07-01T20:01:00.000Z", outcome: "refused", reason: "refunded", double: false },
    ]);
    expect(door.waiting().map((scan) => scan.code)).toEqual(["code-13"]);
    expect(door.scanOf(11)).toMatchObject({ state: "sent", outcome: "checked_in" });
    expect(door.scanOf(12)).toBeUndefined();
  });
});
