// What a door keeps on its device for when the network goes (docs/decisions/0048-offline-check-in.md): the device's
// id (made once per browser), the instance's public key, the event's tickets sold as last seen online (a snapshot),
// and every scan it made, waiting to be sent or sent. It lives in localStorage: a reload, or the browser closed and
// opened again, finds it. A scan is decided here when the network is gone, and admitted by the API once sent.
import type { CheckInOutcome, CheckInRefusal } from "@ticketing/shared/constants";
import type { CheckInSnapshot, CheckInSyncedScan } from "@ticketing/shared/schemas/check-ins";
import type { TicketCodeClaims } from "@ticketing/shared/ticket-code";

const PREFIX = "ticketing.checkIn";

/** This browser's id as a scanning device: made once, kept. */
export function deviceIdOf(storage: Storage, make: () => string = () => crypto.randomUUID()): string {
  const key = `${PREFIX}.device`;
  const known = storage.getItem(key);
  if (known && /^[A-Za-z0-9_-]{8,64}$/.test(known)) return known;
  const made = make();
  storage.setItem(key, made);
  return made;
}

/** The instance's public key (SPKI PEM) as last fetched: the same for every event. */
export const publicKeyStore = (storage: Storage) => ({
  get: () => storage.getItem(`${PREFIX}.publicKey`),
  set: (pem: string) => storage.setItem(`${PREFIX}.publicKey`, pem),
});

/** A scan made on this device: when, which ticket, and what the API answered once it was sent. */
export interface LocalScan {
  code: string;
  /** the ticket (its article line) the code names */
  itemId: number;
  /** ISO 8601: the device's time of the scan, sent as `scanned_at` */
  scannedAt: string;
  /** `waiting` until the API answered it (a live scan is `sent` at once) */
  state: "waiting" | "sent";
  outcome?: CheckInOutcome;
  reason?: CheckInRefusal | null;
  double?: boolean;
}

/** The snapshot as kept: when it was taken, and each ticket sold then with its check-in time (null: not in). */
export interface StoredSnapshot {
  takenAt: string;
  tickets: Record<string, string | null>;
}

export interface DoorState {
  scans: LocalScan[];
  snapshot: StoredSnapshot | null;
}

const isScanOfTicketIn = (scan: LocalScan) =>
  scan.state === "waiting" || scan.outcome === "checked_in" || scan.outcome === "already_checked_in";

/** The door of one event and mode (real or preview) on this device. */
export class DoorStore {
  private readonly key: string;

  constructor(
    private readonly storage: Storage,
    eventId: number,
    preview: boolean,
  ) {
    this.key = `${PREFIX}.door.${eventId}.${preview ? "preview" : "real"}`;
  }

  read(): DoorState {
    try {
      const stored = JSON.parse(this.storage.getItem(this.key) ?? "null") as Partial<DoorState> | null;
      return { scans: Array.isArray(stored?.scans) ? stored.scans : [], snapshot: stored?.snapshot ?? null };
    } catch {
      return { scans: [], snapshot: null };
    }
  }

  private write(state: DoorState) {
    this.storage.setItem(this.key, JSON.stringify(state));
  }

  /** The first scan on this device that let the ticket in, or waits to: a second one is refused here. */
  scanOf(itemId: number): LocalScan | undefined {
    return this.read().scans.find((scan) => scan.itemId === itemId && isScanOfTicketIn(scan));
  }

  add(scan: LocalScan) {
    const state = this.read();
    this.write({ ...state, scans: [...state.scans, scan] });
  }

  waiting(): LocalScan[] {
    return this.read().scans.filter((scan) => scan.state === "waiting");
  }

  /** The API's answers to scans sent: each waiting scan with the same code and time is sent, with its outcome. */
  markSent(results: Pick<CheckInSyncedScan, "code" | "scannedAt" | "outcome" | "reason" | "double">[]) {
    const state = this.read();
    const answered = new Map(results.map((result) => [`${result.scannedAt} ${result.code}`, result]));
    const scans = state.scans.map((scan) => {
      const result =
        scan.state === "waiting" ? answered.get(`${new Date(scan.scannedAt).toISOString()} ${scan.code}`) : undefined;
      return result
        ? { ...scan, state: "sent" as const, outcome: result.outcome, reason: result.reason, double: result.double }
        : scan;
    });
    this.write({ ...state, scans });
  }

  setSnapshot(snapshot: CheckInSnapshot) {
    const tickets: Record<string, string | null> = {};
    for (const ticket of snapshot.tickets) tickets[ticket.id] = ticket.checkedInAt;
    this.write({ ...this.read(), snapshot: { takenAt: snapshot.takenAt, tickets } });
  }
}

/** What the door says of a scan made offline. */
export type OfflineVerdict =
  /** genuine, of this event, not yet scanned here: kept to be sent */
  | { kind: "accepted"; itemId: number }
  /** scanned on this device already: not again */
  | { kind: "alreadyHere"; at: string }
  /** checked in already when the snapshot was taken */
  | { kind: "alreadyBefore"; at: string }
  | { kind: "refused"; reason: "invalid_code" | "other_event" }
  /** genuine, but not among the tickets sold in the snapshot: refunded or cancelled (or sold since) */
  | { kind: "notSold"; snapshotAt: string };

/**
 * The door's decision offline, from the code's claims (null: not genuine) and what the device keeps: the code must be
 * genuine and name this event; a ticket scanned here before is not let in twice; with a snapshot, a ticket not sold
 * then is refused and one in then is already in. Anything else is accepted, to be admitted when sent.
 */
export function offlineVerdict(claims: TicketCodeClaims | null, eventId: number, state: DoorState): OfflineVerdict {
  if (!claims) return { kind: "refused", reason: "invalid_code" };
  if (claims.eventId !== eventId) return { kind: "refused", reason: "other_event" };
  const here = state.scans.find((scan) => scan.itemId === claims.itemId && isScanOfTicketIn(scan));
  if (here) return { kind: "alreadyHere", at: here.scannedAt };
  const { snapshot } = state;
  if (snapshot) {
    if (!(String(claims.itemId) in snapshot.tickets)) return { kind: "notSold", snapshotAt: snapshot.takenAt };
    const before = snapshot.tickets[String(claims.itemId)];
    if (before) return { kind: "alreadyBefore", at: before };
  }
  return { kind: "accepted", itemId: claims.itemId };
}
