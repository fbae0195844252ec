// The hold's end as a buyer sees it on the buy and checkout pages (components/hold-timer.tsx, docs/decisions/0042).
import { HOLD_WARNING_MINUTES, HOLD_WARNING_SHARE } from "@ticketing/shared/constants";
import type { BasketDetail } from "@ticketing/shared/schemas/ticket-office";

export interface HoldTimer {
  /** When the hold ends (ISO). */
  endsAt: string;
  /** From when the page warns that it ends soon (ISO). */
  warnFrom: string;
  /** Whether that time has come. */
  isNear: boolean;
  /** How many more times the buyer may keep their tickets longer. */
  renewalsLeft: number;
  /** What one renewal gives, from the moment it is asked: the event's reservation time. */
  minutes: number;
}

/** The warning's start: the hold's last third, and at most its last HOLD_WARNING_MINUTES. */
export function holdWarningFrom(endsAt: string, reservationMinutes: number): Date {
  const lead = Math.min(HOLD_WARNING_MINUTES, reservationMinutes * HOLD_WARNING_SHARE) * 60_000;
  return new Date(Date.parse(endsAt) - lead);
}

/**
 * A basket's running hold, or null when there is none to show: no basket, nothing in it, or no longer `new` (being
 * paid: the payment term applies, which a renewal cannot move). A hold whose end passed and was not swept yet is
 * shown as near: a renewal still keeps it.
 */
export function holdTimerOf(
  basket: Pick<BasketDetail, "status" | "items" | "expiresAt" | "holdRenewalsLeft"> | null,
  reservationMinutes: number,
  now: Date,
): HoldTimer | null {
  if (basket?.status !== "new" || basket.items.length === 0) return null;
  const warnFrom = holdWarningFrom(basket.expiresAt, reservationMinutes);
  return {
    endsAt: basket.expiresAt,
    warnFrom: warnFrom.toISOString(),
    isNear: now >= warnFrom,
    renewalsLeft: Math.max(0, basket.holdRenewalsLeft),
    minutes: reservationMinutes,
  };
}
