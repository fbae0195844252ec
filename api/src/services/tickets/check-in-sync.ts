// Offline check-in (issue 35, docs/decisions/0048-offline-check-in.md): a door that lost the network verifies codes
// with the public key and keeps its scans; when the network is back it sends them here, and each goes through the
// same admission as a live scan (check-ins.ts admitScan) at the time the device scanned it. A ticket scanned on two
// devices is reported; the door's snapshot of the tickets sold lets it refuse a refunded one while offline.
import { and, type Database, desc, eq, schema } from "@ticketing/db";
import { CHECK_IN_CLOCK_SKEW_MS, CHECK_IN_OFFLINE_MAX_AGE_MS } from "@ticketing/shared/constants";
import type {
  CheckInDouble,
  CheckInSnapshot,
  CheckInSync,
  CheckInSyncedScan,
  CheckInSyncResult,
} from "@ticketing/shared/schemas/check-ins";
import { alias } from "drizzle-orm/sqlite-core";
import { getVisibleEvent, type User } from "../accounts/access.ts";
import { admitScan, checkInCounts, holderName, soldTickets } from "./check-ins.ts";
import type { TicketKeys } from "./ticket-codes.ts";

const { selectedNodes: lines, baskets, billingInformation: billing, frontendLogins, checkIns, checkInDoubles } = schema;

type Deps = { database: Database; ticketKeys: Pick<TicketKeys, "publicKey"> };

/**
 * The scans a device made offline, at the door of an event the user may see (404 otherwise), admitted one after
 * another in the order sent, each at its own time. A scan time ahead of `now` by more than the clock skew allowed,
 * or older than an offline scan may be, is refused for that scan alone. Sending the same scans again answers the
 * same and changes nothing: a scan already admitted is its own check-in (`checked_in`), a double is reported once.
 */
export async function syncScans(deps: Deps, user: User, eventId: number, sync: CheckInSync, now: Date) {
  await getVisibleEvent(deps.database.db, user, eventId);
  const results: CheckInSyncedScan[] = [];
  for (const scan of sync.scans) {
    const at = new Date(scan.scannedAt);
    const tooEarly = now.getTime() - at.getTime() > CHECK_IN_OFFLINE_MAX_AGE_MS;
    const tooLate = at.getTime() - now.getTime() > CHECK_IN_CLOCK_SKEW_MS;
    const base = { code: scan.code, scannedAt: at.toISOString() };
    if (tooEarly || tooLate) {
      const reason = tooLate ? "scanned_in_future" : "scanned_too_long_ago";
      results.push({ ...base, outcome: "refused", reason, ticket: null, checkIn: null, double: false });
      continue;
    }
    const { result, double } = await admitScan(
      deps,
      user,
      eventId,
      { code: scan.code, preview: sync.preview, at, deviceId: sync.deviceId },
      now,
    );
    results.push({ ...base, ...result, double });
  }
  return {
    results,
    counts: await checkInCounts(deps.database.db, eventId, sync.preview),
  } satisfies CheckInSyncResult;
}

const firstBy = alias(schema.users, "first_by");
const secondBy = alias(schema.users, "second_by");

/** The doubles the list shows at most: a door's evening has a handful; more would be a door to look at. */
const DOUBLES_SHOWN = 500;

/** The tickets of an event the user may see (404 otherwise) scanned on two devices, of the mode; newest first. */
export async function listDoubles(
  database: Database,
  user: User,
  eventId: number,
  preview: boolean,
): Promise<CheckInDouble[]> {
  const { db } = database;
  await getVisibleEvent(db, user, eventId);
  const rows = await db
    .select({
      id: checkInDoubles.id,
      ticketId: lines.id,
      reference: baskets.unikey,
      title: lines.title,
      holderName,
      firstDevice: checkIns.deviceId,
      firstBy: firstBy.email,
      firstAt: checkIns.checkedInAt,
      secondDevice: checkInDoubles.deviceId,
      secondBy: secondBy.email,
      secondAt: checkInDoubles.scannedAt,
      reportedAt: checkInDoubles.reportedAt,
    })
    .from(checkInDoubles)
    .innerJoin(checkIns, eq(checkIns.id, checkInDoubles.checkInId))
    .innerJoin(lines, eq(lines.id, checkIns.selectedNodeId))
    .innerJoin(baskets, eq(baskets.id, lines.basketId))
    .leftJoin(billing, eq(billing.id, baskets.billingInformationId))
    .leftJoin(frontendLogins, eq(frontendLogins.id, baskets.createdById))
    .leftJoin(firstBy, eq(firstBy.id, checkIns.checkedInById))
    .leftJoin(secondBy, eq(secondBy.id, checkInDoubles.scannedById))
    .where(and(eq(baskets.eventId, eventId), eq(baskets.testing, preview)))
    .orderBy(desc(checkInDoubles.reportedAt), desc(checkInDoubles.id))
    .limit(DOUBLES_SHOWN)
    .all();
  return rows.map((row) => ({
    id: row.id,
    ticketId: row.ticketId,
    reference: row.reference,
    title: row.title,
    holderName: row.holderName,
    first: { deviceId: row.firstDevice, byEmail: row.firstBy, at: row.firstAt },
    second: { deviceId: row.secondDevice, byEmail: row.secondBy, at: row.secondAt, reportedAt: row.reportedAt },
  }));
}

/** The tickets of an event the user may see (404 otherwise) sold now, of the mode, and whether each is in. */
export async function checkInSnapshot(
  database: Database,
  user: User,
  eventId: number,
  preview: boolean,
  now: Date,
): Promise<CheckInSnapshot> {
  const { db } = database;
  await getVisibleEvent(db, user, eventId);
  const tickets = await db
    .select({ id: lines.id, checkedInAt: checkIns.checkedInAt })
    .from(lines)
    .innerJoin(baskets, eq(baskets.id, lines.basketId))
    .leftJoin(checkIns, eq(checkIns.selectedNodeId, lines.id))
    .where(soldTickets(eventId, preview))
    .orderBy(lines.id)
    .all();
  return { takenAt: now.toISOString(), tickets };
}
