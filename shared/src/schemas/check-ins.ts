// Ticket check-in at the door (issue 17): staff of the event's unit scan a ticket's QR code (or type its code); the
// signature is checked with the event's ticket key, and a sold ticket is checked in once.
import { z } from "zod";
import {
  CHECK_IN_DEVICE_ID_PATTERN,
  CHECK_IN_OUTCOMES,
  CHECK_IN_REFUSALS,
  CHECK_IN_SYNC_MAX_SCANS,
} from "../constants.ts";
import { Id, IsoDate, zBooleanFlag, zIsoDate } from "./common.ts";

/** The scanning device's id, made once per browser (docs/decisions/0048-offline-check-in.md). */
export const DeviceId = z.string().regex(CHECK_IN_DEVICE_ID_PATTERN);

/**
 * `POST /events/:id/check-ins`: one scan. `preview` is the check-in of the preview (test tickets only), as the
 * other sales pages' `preview=true`.
 */
export const CheckInScan = z.strictObject({
  code: z.string().trim().min(1).max(2_000),
  preview: zBooleanFlag.default(false),
  /** the scanning device, so that a ticket scanned on two devices is reported (docs/decisions/0048) */
  deviceId: DeviceId.optional(),
});
export type CheckInScan = z.output<typeof CheckInScan>;

/** Who checked a ticket in, and when. */
export const CheckInMark = z.object({
  checkedInAt: IsoDate,
  /** the staff member's user id and email; null once that account is deleted */
  checkedInById: Id.nullable(),
  checkedInByEmail: z.string().nullable(),
  /** the device that scanned it, when it said (docs/decisions/0048) */
  deviceId: z.string().nullable(),
});
export type CheckInMark = z.infer<typeof CheckInMark>;

/** The door's figures: tickets sold (held articles of paid baskets) and how many of them are checked in. */
export const CheckInCounts = z.object({ sold: z.number().int(), checkedIn: z.number().int() });
export type CheckInCounts = z.infer<typeof CheckInCounts>;

/** `GET /events/:id/check-ins/counts?preview=`: the figures alone. */
export const CheckInCountsQuery = z.strictObject({ preview: zBooleanFlag.default(false) });

/**
 * The answer of a scan (201 when it checked the ticket in, else 200): the outcome, why it was refused, the ticket
 * (null when the code is not ours), the first check-in (when checked in, now or before) and the counts after it.
 */
export const CheckInResult = z.object({
  outcome: z.enum(CHECK_IN_OUTCOMES),
  reason: z.enum(CHECK_IN_REFUSALS).nullable(),
  ticket: z
    .object({
      /** the article's selected node: the ticket's id */
      id: Id,
      basketId: Id,
      /** the basket's reference (unikey), as printed on the ticket */
      reference: z.string().nullable(),
      title: z.string().nullable(),
      holderName: z.string().nullable(),
      testing: z.boolean().nullable(),
    })
    .nullable(),
  checkIn: CheckInMark.nullable(),
  counts: CheckInCounts,
});
export type CheckInResult = z.infer<typeof CheckInResult>;

/**
 * `GET /events/:id/check-ins`: the check-in list, one row per ticket sold (ra-data-simple-rest: `sort`, `range`,
 * `filter` with `checked_in` true/false, `q` on holder and reference, `preview`), with `Content-Range`.
 */
export const CheckInRow = z.object({
  /** the article's selected node: the ticket's id */
  id: Id,
  basketId: Id,
  reference: z.string(),
  title: z.string(),
  holderName: z.string(),
  checkedInAt: IsoDate.nullable(),
  checkedInById: Id.nullable(),
  checkedInByEmail: z.string().nullable(),
});
export type CheckInRow = z.infer<typeof CheckInRow>;

/**
 * `POST /events/:id/check-ins/sync` (docs/decisions/0048-offline-check-in.md): the scans a device made offline, each
 * with its code and the device's time of the scan, sent when the network is back; at most CHECK_IN_SYNC_MAX_SCANS.
 */
export const CheckInSync = z.strictObject({
  deviceId: DeviceId,
  preview: zBooleanFlag.default(false),
  scans: z
    .array(z.strictObject({ code: z.string().trim().min(1).max(2_000), scannedAt: zIsoDate }))
    .min(1)
    .max(CHECK_IN_SYNC_MAX_SCANS),
});
export type CheckInSync = z.output<typeof CheckInSync>;

/**
 * What one synced scan found, as a live scan's answer without the counts: `checked_in` when this scan let the ticket
 * in (now, or when the same scan was sent before: a retry); `already_checked_in` with the first check-in (its device,
 * staff, time); `refused` and why. `double` when the ticket was first checked in on another device: it is reported.
 */
export const CheckInSyncedScan = CheckInResult.omit({ counts: true }).extend({
  code: z.string(),
  scannedAt: IsoDate,
  double: z.boolean(),
});
export type CheckInSyncedScan = z.infer<typeof CheckInSyncedScan>;

/** The sync's answer: one result per scan, in the order sent, and the counts after them. */
export const CheckInSyncResult = z.object({ results: z.array(CheckInSyncedScan), counts: CheckInCounts });
export type CheckInSyncResult = z.infer<typeof CheckInSyncResult>;

/** A scan of a device: which device, who held it, when. */
const DeviceScan = z.object({
  deviceId: z.string().nullable(),
  /** the staff member's email; null once that account is deleted */
  byEmail: z.string().nullable(),
  at: IsoDate,
});

/**
 * `GET /events/:id/check-ins/doubles?preview=`: the tickets scanned on two devices, the first scan (the check-in)
 * and the other device's; newest reported first.
 */
export const CheckInDouble = z.object({
  id: Id,
  /** the ticket (its article's selected node) */
  ticketId: Id,
  reference: z.string(),
  title: z.string(),
  holderName: z.string(),
  first: DeviceScan,
  second: DeviceScan.extend({ reportedAt: IsoDate }),
});
export type CheckInDouble = z.infer<typeof CheckInDouble>;

/**
 * `GET /events/:id/check-ins/snapshot?preview=`: the tickets sold when it was taken and whether each is in, for a
 * door that loses the network to refuse a refunded or cancelled ticket (one not in the list).
 */
export const CheckInSnapshot = z.object({
  takenAt: IsoDate,
  tickets: z.array(z.object({ id: Id, checkedInAt: IsoDate.nullable() })),
});
export type CheckInSnapshot = z.infer<typeof CheckInSnapshot>;
