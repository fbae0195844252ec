// The door's life without a network (docs/decisions/0048-offline-check-in.md). Online, it keeps the instance's public
// key and the event's tickets sold (a snapshot, taken again every minute); a scan the network cannot carry is decided
// here (the code's signature with WebCrypto Ed25519, its event, the scans of this device, the snapshot) and kept;
// when the network comes back (the `online` event, and a retry every 15 seconds while scans wait) they are sent to
// `POST /events/:id/check-ins/sync`, where each is admitted as a live scan would be.
import { useQueryClient } from "@tanstack/react-query";
import { CHECK_IN_SYNC_MAX_SCANS } from "@ticketing/shared/constants";
import type { CheckInSyncedScan } from "@ticketing/shared/schemas/check-ins";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { HttpError, useDataProvider } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { importTicketKey, verifyCode } from "./offlineCode.ts";
import { DoorStore, deviceIdOf, type OfflineVerdict, offlineVerdict, publicKeyStore } from "./offlineDoor.ts";

const RETRY_MS = 15_000;
const SNAPSHOT_MS = 60_000;

/** A request that never reached the API (no network), as opposed to an answer of it. */
export const isNetworkFailure = (error: unknown) => !(error instanceof HttpError) && error instanceof TypeError;

/** What the last sync answered, added up. */
export interface SyncSummary {
  checkedIn: number;
  already: number;
  refused: number;
  doubles: number;
}

export const summaryOf = (results: CheckInSyncedScan[]): SyncSummary => ({
  checkedIn: results.filter((result) => result.outcome === "checked_in").length,
  already: results.filter((result) => result.outcome === "already_checked_in").length,
  refused: results.filter((result) => result.outcome === "refused").length,
  doubles: results.filter((result) => result.double).length,
});

export const doublesKey = (eventId: number, preview: boolean) => ["events", "checkInDoubles", eventId, preview];
const countsKey = (eventId: number, preview: boolean) => ["events", "checkInCounts", eventId, preview];

export function useOfflineDoor(eventId: number, preview: boolean) {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const queryClient = useQueryClient();
  const store = useMemo(() => new DoorStore(window.localStorage, eventId, preview), [eventId, preview]);
  const deviceId = useMemo(() => deviceIdOf(window.localStorage), []);
  const keys = useMemo(() => publicKeyStore(window.localStorage), []);
  const [online, setOnline] = useState(() => navigator.onLine);
  const [waiting, setWaiting] = useState(() => store.waiting().length);
  const [snapshotAt, setSnapshotAt] = useState(() => store.read().snapshot?.takenAt ?? null);
  const [hasKey, setHasKey] = useState(() => keys.get() !== null);
  const [sending, setSending] = useState(false);
  const [syncError, setSyncError] = useState<string | null>(null);
  const [summary, setSummary] = useState<SyncSummary | null>(null);
  const syncing = useRef(false);
  const key = useRef<{ pem: string; key: Promise<CryptoKey> } | null>(null);

  /** The key and the snapshot, while the network is there; a failure keeps what the device has. */
  const refresh = useCallback(async () => {
    try {
      const { data: pem } = await dataProvider.getTicketPublicKey();
      if (pem.includes("PUBLIC KEY")) {
        keys.set(pem);
        setHasKey(true);
      }
      const { data: snapshot } = await dataProvider.getCheckInSnapshot(eventId, preview);
      store.setSnapshot(snapshot);
      setSnapshotAt(snapshot.takenAt);
    } catch {}
  }, [dataProvider, eventId, preview, keys, store]);

  /** Sends the waiting scans, a batch at a time; a failure leaves them waiting for the next try. */
  const sync = useCallback(async () => {
    if (syncing.current || store.waiting().length === 0) return;
    syncing.current = true;
    setSending(true);
    setSyncError(null);
    const results: CheckInSyncedScan[] = [];
    try {
      for (let batch = store.waiting(); batch.length > 0; batch = store.waiting()) {
        const scans = batch
          .slice(0, CHECK_IN_SYNC_MAX_SCANS)
          .map((scan) => ({ code: scan.code, scannedAt: scan.scannedAt }));
        const { data } = await dataProvider.syncCheckIns(eventId, { deviceId, preview, scans });
        store.markSent(data.results);
        results.push(...data.results);
        queryClient.setQueryData(countsKey(eventId, preview), data.counts);
        setWaiting(store.waiting().length);
        // Answers that match no waiting scan would loop forever: stop, the next try sends what is left.
        if (store.waiting().length >= batch.length) break;
      }
      setSummary(summaryOf(results));
      void queryClient.invalidateQueries({ queryKey: doublesKey(eventId, preview) });
      void refresh();
    } catch (error) {
      setSyncError(
        isNetworkFailure(error)
          ? "admin.checkIn.offline.unreachable"
          : error instanceof Error
            ? error.message
            : "admin.errors.unexpected",
      );
    } finally {
      syncing.current = false;
      setSending(false);
      setWaiting(store.waiting().length);
    }
  }, [dataProvider, deviceId, eventId, preview, queryClient, refresh, store]);

  useEffect(() => {
    const wentOnline = () => {
      setOnline(true);
      void sync();
    };
    const wentOffline = () => setOnline(false);
    window.addEventListener("online", wentOnline);
    window.addEventListener("offline", wentOffline);
    if (navigator.onLine) void refresh().then(sync);
    const retry = window.setInterval(() => {
      if (navigator.onLine) void sync();
    }, RETRY_MS);
    const snapshot = window.setInterval(() => {
      if (navigator.onLine) void refresh();
    }, SNAPSHOT_MS);
    return () => {
      window.removeEventListener("online", wentOnline);
      window.removeEventListener("offline", wentOffline);
      window.clearInterval(retry);
      window.clearInterval(snapshot);
    };
  }, [refresh, sync]);

  /** The door's decision on a code the network could not carry; a genuine new ticket is kept to be sent. */
  const decideOffline = async (code: string): Promise<OfflineVerdict | null> => {
    const pem = keys.get();
    if (!pem) return null;
    if (key.current?.pem !== pem) key.current = { pem, key: importTicketKey(pem) };
    let claims: Awaited<ReturnType<typeof verifyCode>>;
    try {
      claims = await verifyCode(await key.current.key, code);
    } catch {
      return null;
    }
    const verdict = offlineVerdict(claims, eventId, store.read());
    if (verdict.kind === "accepted") {
      store.add({ code, itemId: verdict.itemId, scannedAt: new Date().toISOString(), state: "waiting" });
      setWaiting(store.waiting().length);
    }
    return verdict;
  };

  /** A live scan's answer, kept: this device then refuses the ticket offline as already scanned here. */
  const keepLiveScan = (code: string, itemId: number | undefined, outcome: CheckInSyncedScan["outcome"]) => {
    if (itemId === undefined || outcome === "refused") return;
    store.add({ code, itemId, scannedAt: new Date().toISOString(), state: "sent", outcome });
  };

  return {
    deviceId,
    online,
    waiting,
    snapshotAt,
    hasKey,
    sending,
    syncError,
    summary,
    sync,
    decideOffline,
    keepLiveScan,
  };
}
