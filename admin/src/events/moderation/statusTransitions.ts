import type { EventStatus } from "@ticketing/shared/constants";

/** DESIGN.md 4 / docs/api.md: the event statuses reachable from each status. */
const TRANSITIONS: Record<EventStatus, readonly EventStatus[]> = {
  draft: ["public"],
  public: ["closed", "draft"],
  closed: ["public", "archived"],
  archived: [],
};

/**
 * The statuses the status select offers: the current one, then those reachable from it. Going public
 * needs a validated moderation (the API answers 409 otherwise).
 */
export function allowedStatuses(status: EventStatus, moderationStatus: string | undefined): EventStatus[] {
  const next = TRANSITIONS[status].filter((target) => target !== "public" || moderationStatus === "validated");
  return [status, ...next];
}
