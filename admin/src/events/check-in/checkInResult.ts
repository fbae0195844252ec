// What the door shows of a scan (issue 17): the tone of the panel, and its headline as an i18n key with its values.
// The colour is never the only sign: each tone has its own words and icon.
import type { CheckInOutcome, CheckInRefusal } from "@ticketing/shared/constants";
import type { CheckInResult } from "@ticketing/shared/schemas/check-ins";
import type { OfflineVerdict } from "./offlineDoor.ts";

export type CheckInTone = "success" | "warning" | "error";

/** Green when the ticket is let in now, amber when it was already, red when it is refused. */
export const CHECK_IN_TONES: Record<CheckInOutcome, CheckInTone> = {
  checked_in: "success",
  already_checked_in: "warning",
  refused: "error",
};

/** The i18n key of a refusal's reason; a ticket of the other mode is explained from the door's side. */
export function refusalKey(reason: CheckInRefusal, preview: boolean): string {
  if (reason === "wrong_mode") return `admin.checkIn.reasons.${preview ? "realInPreview" : "testAtDoor"}`;
  return `admin.checkIn.reasons.${reason}`;
}

/** An i18n key and its values. */
interface Line {
  key: string;
  options: Record<string, string>;
}

export interface Headline {
  /** the i18n key of the panel's big words */
  key: string;
  /** the line under them (`reason` is an i18n key itself: refusalKey) */
  detail: Line | null;
}

/** When and by whom a ticket came in: "at <time> by <email>", or "at <time>" once the account is gone. */
export const checkedInLine = (time: string, email: string | null | undefined): Line =>
  email
    ? { key: "admin.checkIn.outcome.atBy", options: { time, email } }
    : { key: "admin.checkIn.outcome.at", options: { time } };

/**
 * The panel's words: "Checked in"; "Already checked in", "at <time> by <email>" (without "by" once the account is
 * gone); "Refused", and the reason. `formatTime` writes the first check-in's moment in the interface's language.
 */
export function headlineOf(result: CheckInResult, preview: boolean, formatTime: (iso: string) => string): Headline {
  switch (result.outcome) {
    case "checked_in":
      return { key: "admin.checkIn.outcome.checkedIn", detail: null };
    case "already_checked_in":
      return {
        key: "admin.checkIn.outcome.already",
        detail: checkedInLine(
          result.checkIn ? formatTime(result.checkIn.checkedInAt) : "",
          result.checkIn?.checkedInByEmail,
        ),
      };
    case "refused":
      return {
        key: "admin.checkIn.outcome.refused",
        detail: { key: refusalKey(result.reason ?? "invalid_code", preview), options: {} },
      };
  }
}

/** A scan decided offline (docs/decisions/0048): green when kept to be sent, amber when already in, red refused. */
export const OFFLINE_TONES: Record<OfflineVerdict["kind"], CheckInTone> = {
  accepted: "success",
  alreadyHere: "warning",
  alreadyBefore: "warning",
  refused: "error",
  notSold: "error",
};

/**
 * The panel's words for a scan decided offline: "Accepted offline" and that it waits to be sent; "Already scanned on
 * this device" and when; "Already checked in" before the network was lost; "Refused" and why.
 */
export function offlineHeadlineOf(verdict: OfflineVerdict, formatTime: (iso: string) => string): Headline {
  switch (verdict.kind) {
    case "accepted":
      return {
        key: "admin.checkIn.offline.accepted",
        detail: { key: "admin.checkIn.offline.acceptedDetail", options: {} },
      };
    case "alreadyHere":
      return {
        key: "admin.checkIn.offline.alreadyHere",
        detail: { key: "admin.checkIn.offline.alreadyHereAt", options: { time: formatTime(verdict.at) } },
      };
    case "alreadyBefore":
      return {
        key: "admin.checkIn.outcome.already",
        detail: { key: "admin.checkIn.offline.alreadyBefore", options: { time: formatTime(verdict.at) } },
      };
    case "refused":
      return {
        key: "admin.checkIn.outcome.refused",
        detail: { key: refusalKey(verdict.reason, false), options: {} },
      };
    case "notSold":
      return {
        key: "admin.checkIn.outcome.refused",
        detail: { key: "admin.checkIn.reasons.notSold", options: { time: formatTime(verdict.snapshotAt) } },
      };
  }
}

/**
 * A code as typed or pasted: the code printed under the QR code is cut into lines, and a signed code
 * (base64url, a dot, base64url) never holds a space, so every space and line break goes.
 */
export const normaliseCode = (typed: string): string => typed.replace(/\s+/g, "");

/**
 * Whether a code the camera read is sent: not while a scan is on its way, and not the code it sent last — the
 * camera sees the same ticket many times a second while it is held up, and a second send would turn the green
 * "checked in" into "already checked in" under the staff's eyes. The photo and the typed code always send.
 */
export const isNewCameraCode = (code: string, last: string | null, busy: boolean): boolean =>
  !busy && code !== "" && code !== last;
