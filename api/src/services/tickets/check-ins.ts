// Ticket check-in at the door (docs/decisions/0027-ticket-check-in.md): a scanned code is verified with the ticket
// key, then its ticket is let in once. Every scan is answered with an outcome (checked in, already checked in, or
// refused and why): a refusal is the door's normal business, not a failed request.
import { and, type Database, type Db, eq, inArray, or, schema, sql } from "@ticketing/db";
import { type CheckInRefusal, SOLD_BASKET_STATUSES } from "@ticketing/shared/constants";
import type { CheckInCounts, CheckInResult, CheckInRow, CheckInScan } from "@ticketing/shared/schemas/check-ins";
import type { SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { DomainError } from "../../lib/errors.ts";
import { type ListOptions, type ListQuery, listOrder } from "../../lib/list-query.ts";
import { checkInSource, webhookStatement } from "../../lib/webhook-outbox.ts";
import { getVisibleEvent, type User } from "../accounts/access.ts";
import { isPreview } from "../sales/sales.ts";
import { type TicketKeys, verifyTicketCode } from "./ticket-codes.ts";

const {
  selectedNodes: lines,
  baskets,
  billingInformation: billing,
  frontendLogins,
  checkIns,
  checkInDoubles,
  users,
} = schema;

/** The name printed on the ticket: the billing name, else the ticket-office login's email (tickets.ts loadOrder). */
export const holderName = sql<string>`coalesce(nullif(trim(${billing.firstName} || ' ' || ${billing.lastName}), ''), ${frontendLogins.email}, '')`;

/**
 * Not yet checked in sorts first going up, as SQLite sorts nulls, but as a value: the export reads the list in
 * batches after the last row's sort key, which a null would never be after.
 */
const checkedInOrder = sql<string>`coalesce(${checkIns.checkedInAt}, '')` as unknown as SQLiteColumn;

/** The list's (and its export's) sortable fields and their columns. */
export const CHECK_IN_COLUMNS: Record<string, SQLiteColumn> = {
  id: lines.id,
  basketId: baskets.id,
  reference: baskets.unikey,
  title: lines.title,
  checkedInAt: checkedInOrder,
};

/** The list is an event's (its id in the path): sorts, and its filters are `checked_in`, `q` and `preview`. */
export const CHECK_IN_LIST: ListOptions = { sortable: Object.keys(CHECK_IN_COLUMNS) };

/** What a row of the list shows of a ticket, and what a scan reads of it besides. */
const ticketFields = {
  id: lines.id,
  basketId: baskets.id,
  reference: baskets.unikey,
  title: lines.title,
  holderName,
  checkedInAt: checkIns.checkedInAt,
  checkedInById: checkIns.checkedInById,
  checkedInByEmail: users.email,
};
/** What a scan reads besides: the check-in's row and device (docs/decisions/0048). */
const scanFields = {
  ...ticketFields,
  checkInId: checkIns.id,
  checkInDeviceId: checkIns.deviceId,
  eventId: baskets.eventId,
  basketStatus: baskets.status,
  testing: baskets.testing,
  lineStatus: lines.status,
  isArticle: lines.isArticle,
};

/**
 * The lines with their basket, holder and check-in: a query to add the WHERE, order and page to. `sortKey` is what
 * the export reads its batches after (exports/engine.ts `inBatches`).
 */
export const ticketsQuery = (db: Db, sortKey: SQL = sql`null`) =>
  db
    // The French title for the export's column beside the English (docs/decisions/0043); not read by a scan.
    .select({ ...scanFields, titleFr: lines.titleFr, sortKey })
    .from(lines)
    .innerJoin(baskets, eq(baskets.id, lines.basketId))
    .leftJoin(billing, eq(billing.id, baskets.billingInformationId))
    .leftJoin(frontendLogins, eq(frontendLogins.id, baskets.createdById))
    .leftJoin(checkIns, eq(checkIns.selectedNodeId, lines.id))
    .leftJoin(users, eq(users.id, checkIns.checkedInById))
    .$dynamic();

/** The event's tickets sold: its article lines still held in a paid basket, real ones or, with `preview`, tests. */
export const soldTickets = (eventId: number, preview: boolean) =>
  and(
    eq(baskets.eventId, eventId),
    eq(baskets.testing, preview),
    inArray(baskets.status, [...SOLD_BASKET_STATUSES]),
    eq(lines.isArticle, true),
    eq(lines.status, "held"),
  );

/** `checked_in`: true, false, or absent; anything else is a 400. */
function checkedInCondition(filter: Record<string, unknown>): SQL | undefined {
  const value = filter.checkedIn;
  if (value === undefined) return undefined;
  if (value === true || value === "true") return sql`${checkIns.id} is not null`;
  if (value === false || value === "false") return sql`${checkIns.id} is null`;
  throw new DomainError("invalid", ["errors.filter_checked_in_invalid"]);
}

/** `q`: the basket's reference or the holder's name or email containing the text (any case). */
function searchCondition(filter: Record<string, unknown>): SQL | undefined {
  const q = typeof filter.q === "string" ? filter.q.trim() : "";
  if (!q) return undefined;
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const contains = (value: SQL | SQLiteColumn) => sql`${value} LIKE ${pattern} ESCAPE '\\'`;
  return or(contains(baskets.unikey), contains(holderName), contains(billing.email), contains(frontendLogins.email));
}

/** Which tickets the list of an event (or its export) shows: sold ones of its mode, filtered by check-in and text. */
export const checkInsWhere = (eventId: number, query: ListQuery) =>
  and(soldTickets(eventId, isPreview(query.filter)), checkedInCondition(query.filter), searchCondition(query.filter));

/** The event's tickets sold and how many of them are checked in, real ones or, with `preview`, tests. */
export async function checkInCounts(db: Db, eventId: number, preview: boolean): Promise<CheckInCounts> {
  const row = await db
    .select({ sold: sql<number>`count(*)`, checkedIn: sql<number>`count(${checkIns.id})` })
    .from(lines)
    .innerJoin(baskets, eq(baskets.id, lines.basketId))
    .leftJoin(checkIns, eq(checkIns.selectedNodeId, lines.id))
    .where(soldTickets(eventId, preview))
    .get();
  return { sold: Number(row?.sold ?? 0), checkedIn: Number(row?.checkedIn ?? 0) };
}

/** The figures of an event the user may see (404 otherwise). */
export async function visibleCheckInCounts(db: Db, user: User, eventId: number, preview: boolean) {
  await getVisibleEvent(db, user, eventId);
  return checkInCounts(db, eventId, preview);
}

/** A page of the check-in list of an event the user may see (404 otherwise), and how many rows match. */
export async function listCheckIns(
  db: Db,
  user: User,
  eventId: number,
  query: ListQuery,
): Promise<{ rows: CheckInRow[]; total: number }> {
  await getVisibleEvent(db, user, eventId);
  const where = checkInsWhere(eventId, query);
  const order = [
    listOrder(query, CHECK_IN_COLUMNS),
    listOrder({ ...query, sort: { ...query.sort, field: "id" } }, CHECK_IN_COLUMNS),
  ];
  const [rows, total] = await Promise.all([
    ticketsQuery(db)
      .where(where)
      .orderBy(...order)
      .limit(query.limit)
      .offset(query.offset)
      .all(),
    db.$count(ticketsQuery(db).where(where)),
  ]);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      basketId: row.basketId,
      reference: row.reference,
      title: row.title,
      holderName: row.holderName,
      checkedInAt: row.checkedInAt,
      checkedInById: row.checkedInById,
      checkedInByEmail: row.checkedInByEmail,
    })),
    total,
  };
}

/** What a scan found of the ticket a genuine code names: its line and basket, its check-in when it has one. */
async function findTicket(db: Db, itemId: number, basketId: number) {
  return ticketsQuery(db)
    .where(and(eq(lines.id, itemId), eq(baskets.id, basketId)))
    .get();
}

type FoundTicket = NonNullable<Awaited<ReturnType<typeof findTicket>>>;

/**
 * Why a ticket of the event may not come in, or null when it may: a test ticket only at the preview's door and a
 * real one only at the real door; then refunded (the line or the whole basket); then anything else not sold (an
 * unpaid basket, a line released or expired).
 */
function refusalOf(ticket: FoundTicket, preview: boolean): CheckInRefusal | null {
  if (ticket.testing !== preview) return "wrong_mode";
  if (ticket.lineStatus === "refunded" || ticket.basketStatus === "refunded") return "refunded";
  const sold = (SOLD_BASKET_STATUSES as readonly string[]).includes(ticket.basketStatus);
  return sold && ticket.lineStatus === "held" && ticket.isArticle ? null : "cancelled";
}

const ticketOf = (found: FoundTicket): NonNullable<CheckInResult["ticket"]> => ({
  id: found.id,
  basketId: found.basketId,
  reference: found.reference,
  title: found.title,
  holderName: found.holderName,
  testing: found.testing,
});

const markOf = (found: FoundTicket): CheckInResult["checkIn"] =>
  found.checkedInAt === null
    ? null
    : {
        checkedInAt: found.checkedInAt,
        checkedInById: found.checkedInById,
        checkedInByEmail: found.checkedInByEmail,
        deviceId: found.checkInDeviceId,
      };

/**
 * Lets the ticket in unless it already is: one statement that inserts only while the line is still sold, and
 * inserts nothing when another scan's row is there (the unique line). Whether it inserted is the whole answer, so
 * two devices scanning at the same instant cannot both be told "checked in".
 */
async function insertCheckIn(
  database: Database,
  ticket: FoundTicket,
  eventId: number,
  user: User,
  at: Date,
  deviceId: string | null,
  now: Date,
) {
  const statuses = SOLD_BASKET_STATUSES.map(() => "?").join(", ");
  const [inserted] = await database.batch([
    {
      sql: `insert into check_ins (selected_node_id, checked_in_by_id, checked_in_at, device_id)
        select ?, ?, ?, ? where exists (
          select 1 from selected_nodes l join baskets b on b.id = l.basket_id
          where l.id = ? and l.status = 'held' and l.is_article = 1
            and b.id = ? and b.event_id = ? and b.testing = ? and b.status in (${statuses}))
        on conflict (selected_node_id) do nothing returning id`,
      args: [
        ticket.id,
        user.id,
        at.toISOString(),
        deviceId,
        ticket.id,
        ticket.basketId,
        eventId,
        ticket.testing ? 1 : 0,
        ...SOLD_BASKET_STATUSES,
      ],
    },
    // The unit's webhooks hear of it only when the statement above inserted the row (ADR 0045): `changes()` is
    // that statement's, in the same batch, so a second scan or a lost race queues nothing.
    webhookStatement(
      "ticket.checked_in",
      { ...checkInSource(ticket.id), sql: `${checkInSource(ticket.id).sql} and changes() = 1` },
      now,
    ),
  ]);
  return (inserted?.length ?? 0) > 0;
}

/**
 * Records a ticket already in, scanned again on another device (docs/decisions/0048): once per other device, so a
 * retry records nothing more. Only a scan that names its device can tell; the first scan's device may be unknown.
 */
async function reportDouble(database: Database, found: FoundTicket, user: User, scan: Admission, now: Date) {
  if (scan.deviceId === null || found.checkInId === null || found.checkInDeviceId === scan.deviceId) return false;
  await database.db
    .insert(checkInDoubles)
    .values({
      checkInId: found.checkInId,
      deviceId: scan.deviceId,
      scannedById: user.id,
      scannedAt: scan.at.toISOString(),
      reportedAt: now.toISOString(),
    })
    .onConflictDoNothing()
    .run();
  return true;
}

/** A scan to admit: its code and door (real or preview), when and on which device it was made. */
export interface Admission {
  code: string;
  preview: boolean;
  /** when the ticket was scanned: now for a live scan, the device's time for an offline one sent later */
  at: Date;
  deviceId: string | null;
}

/** What the admission found: the scan's answer without the counts, whether it let the ticket in, and a double. */
export interface Admitted {
  created: boolean;
  double: boolean;
  result: Omit<CheckInResult, "counts">;
}

/**
 * The one admission of a scan, live or sent later by an offline device (docs/decisions/0027, 0048), at the door of
 * an event the caller was allowed to see: the code's signature and event, the ticket's mode and sale, then the
 * guarded insert. A scan sent again (the same device and time as the check-in: a retried sync) is answered
 * `checked_in` again and counts nothing twice; a scan from another device of a ticket already in is reported.
 */
export async function admitScan(
  deps: { database: Database; ticketKeys: Pick<TicketKeys, "publicKey"> },
  user: User,
  eventId: number,
  scan: Admission,
  now: Date,
): Promise<Admitted> {
  const { database } = deps;
  const { db } = database;
  const refused = (reason: CheckInRefusal, found?: FoundTicket): Admitted => ({
    created: false,
    double: false,
    result: {
      outcome: "refused",
      reason,
      ticket: found ? ticketOf(found) : null,
      checkIn: found ? markOf(found) : null,
    },
  });
  const answered = async (found: FoundTicket, created: boolean): Promise<Admitted> => {
    const again = !created && found.checkInDeviceId === scan.deviceId && found.checkedInAt === scan.at.toISOString();
    return {
      created,
      double: created || again ? false : await reportDouble(database, found, user, scan, now),
      result: {
        outcome: created || again ? "checked_in" : "already_checked_in",
        reason: null,
        ticket: ticketOf(found),
        checkIn: markOf(found),
      },
    };
  };

  const claims = verifyTicketCode(deps.ticketKeys, scan.code);
  if (!claims) return refused("invalid_code");
  // Nothing of another event's ticket is shown: the scanner's staff may not be allowed to see that event.
  if (claims.eventId !== eventId) return refused("other_event");
  const found = await findTicket(db, claims.itemId, claims.basketId);
  // A genuine code whose line is gone (its basket deleted) was signed for a ticket no longer sold.
  if (!found) return refused("cancelled");
  if (found.eventId !== eventId) return refused("other_event");
  const refusal = refusalOf(found, scan.preview);
  if (refusal) return refused(refusal, found);
  if (found.checkedInAt !== null) return answered(found, false);
  if (await insertCheckIn(database, found, eventId, user, scan.at, scan.deviceId, now))
    return answered(
      {
        ...found,
        checkedInAt: scan.at.toISOString(),
        checkedInById: user.id,
        checkedInByEmail: user.email,
        checkInDeviceId: scan.deviceId,
      },
      true,
    );
  // Checked in by another scan a moment ago, or refunded meanwhile: read again what won.
  const again = await findTicket(db, claims.itemId, claims.basketId);
  if (!again) return refused("cancelled");
  const refusedNow = refusalOf(again, scan.preview);
  if (refusedNow) return refused(refusedNow, again);
  return again.checkedInAt === null ? refused("cancelled", again) : answered(again, false);
}

/**
 * One scan at the door of an event the user may see (404 otherwise), made now. `created` is true when this scan
 * checked the ticket in (the route answers 201), false for every other outcome (200).
 */
export async function scanTicket(
  deps: { database: Database; ticketKeys: Pick<TicketKeys, "publicKey"> },
  user: User,
  eventId: number,
  scan: CheckInScan,
  now: Date,
): Promise<{ created: boolean; result: CheckInResult }> {
  await getVisibleEvent(deps.database.db, user, eventId);
  const { created, result } = await admitScan(
    deps,
    user,
    eventId,
    { code: scan.code, preview: scan.preview, at: now, deviceId: scan.deviceId ?? null },
    now,
  );
  return { created, result: { ...result, counts: await checkInCounts(deps.database.db, eventId, scan.preview) } };
}
