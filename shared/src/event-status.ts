// An event's status and its moderation (docs/decisions/0031): which status follows which, what going public needs,
// who may change an event in which status, and what an organiser's change does to an approved event. The API
// enforces these rules; the back office offers only what they allow.
import type { EventStatus, ModerationStatus } from "./constants.ts";

/** The statuses reachable from each status (superusers may set any, but for going public unapproved). */
export const EVENT_STATUS_TRANSITIONS: Record<EventStatus, readonly EventStatus[]> = {
  draft: ["public"],
  public: ["closed", "draft"],
  closed: ["public", "archived"],
  archived: [],
};

/** Only an event the moderators approved goes public (from draft or closed), whoever sets it. */
export const mayGoPublic = (moderationStatus: ModerationStatus) => moderationStatus === "validated";

/**
 * The statuses an organiser may choose for an event: the current one, then those reachable from it (public only
 * once approved). The API answers 409 to any other.
 */
export function allowedStatuses(status: EventStatus, moderationStatus: ModerationStatus): EventStatus[] {
  const next = EVENT_STATUS_TRANSITIONS[status].filter(
    (target) => target !== "public" || mayGoPublic(moderationStatus),
  );
  return [status, ...next];
}

/** The moderation's steps: organisers ask (again, after changes requested); superusers approve or ask for changes. */
export const MODERATION_TRANSITIONS = {
  request: { from: ["not_requested", "change_requested"], to: "requested" },
  approve: { from: ["requested"], to: "validated" },
  requestChanges: { from: ["requested", "validated"], to: "change_requested" },
} as const satisfies Record<string, { from: readonly ModerationStatus[]; to: ModerationStatus }>;
export type ModerationAction = keyof typeof MODERATION_TRANSITIONS;

/** Whether `action` may be taken on an event whose moderation is `moderationStatus`. */
export const canModerate = (action: ModerationAction, moderationStatus: ModerationStatus) =>
  (MODERATION_TRANSITIONS[action].from as readonly ModerationStatus[]).includes(moderationStatus);

/**
 * Whether an event is locked for a user: only a draft can be changed, but by a superuser (who may change any
 * event). Its status still moves (EVENT_STATUS_TRANSITIONS).
 */
export const isEventLocked = (status: EventStatus, isSuperuser: boolean) => status !== "draft" && !isSuperuser;

/**
 * Whether an event's communication texts (the mails' subjects, openings and signature, the confirmation page's
 * text, the PDF ticket's text) are locked for a user: they may still be fixed while the event is public, like a
 * draft's (what buyers buy does not change; the moderators review the new texts: `moderationAfterChange`).
 */
export const areCommunicationTextsLocked = (status: EventStatus, isSuperuser: boolean) =>
  status !== "public" && isEventLocked(status, isSuperuser);

/**
 * Whether an event's waiting room (docs/decisions/0037) is locked for a user: an on-sale runs on a public event, so a
 * draft's or a public event's room may be run by its organisers; a closed or archived event's only by a superuser.
 */
export const isWaitingRoomLocked = (status: EventStatus, isSuperuser: boolean) =>
  status !== "public" && isEventLocked(status, isSuperuser);

/**
 * The moderation an approved event is left with once someone other than a superuser changes it (its fields,
 * settings, payment module, communication, elements or rules): a draft needs a new approval, asked for by its
 * organiser once the changes are done; a public event (whose texts only may change) stays on sale and goes back to
 * the moderators' queue at once. Any other moderation stays as it is (a request pending reviews the event as it
 * is when approved). Going back to public without a change keeps the approval.
 */
export function moderationAfterChange(status: EventStatus, moderationStatus: ModerationStatus): ModerationStatus {
  if (moderationStatus !== "validated") return moderationStatus;
  return status === "draft" ? "not_requested" : "requested";
}
