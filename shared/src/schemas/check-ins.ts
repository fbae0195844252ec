// Ticket check-in at the door (issue 17): staff of the event's unit scan a ticket's QR code (or type its code); the
// signature is checked with the event's ticket key, and a sold ticket is checked in once.
import { z } from "zod";
import { CHECK_IN_OUTCOMES, CHECK_IN_REFUSALS } from "../constants.ts";
import { Id, IsoDate, zBooleanFlag } from "./common.ts";

/**
 * `POST /events/:id/check-ins`: one scan. `preview` is the check-in of the preview (test tickets only), as the
 * other sales pages' `preview=true`.
 */
export const CheckInScan = z.strictObject({
  code: z.string().trim().min(1).max(2_000),
  preview: zBooleanFlag.default(false),
});
export type CheckInScan = z.output<typeof CheckInScan>;

/** Who checked a ticket in, and when. */
export const CheckInMark = z.object({
  checkedInAt: IsoDate,
  /** the staff member's user id and email; null once that account is deleted */
  checkedInById: Id.nullable(),
  checkedInByEmail: z.string().nullable(),
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
