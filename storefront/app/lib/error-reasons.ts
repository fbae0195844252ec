// Why a page was refused, when its status alone does not say it: the data a loader or an action throws with its
// status, read by the error page (components/error-page.tsx) to say what happened and where to go on.

/** A post that was not a form the ticket office can read (lib/posted-form.server.ts): 400 or 415. */
export interface UnreadableForm {
  reason: "unreadableForm";
}

/**
 * The buy page (or a checkout step with nothing to check out) of an event whose registrations are not open: 404
 * (docs/specification.md §5), saying so, with the way back to the event's page (docs/decisions/0034).
 */
export interface RegistrationsClosed {
  reason: "registrationsClosed";
  eventHref: string;
}

export type ErrorReason = UnreadableForm | RegistrationsClosed;

export function errorReasonOf(value: unknown): ErrorReason | null {
  if (typeof value !== "object" || value === null) return null;
  const { reason, eventHref } = value as { reason?: unknown; eventHref?: unknown };
  if (reason === "unreadableForm") return { reason };
  if (reason === "registrationsClosed" && typeof eventHref === "string") return { reason, eventHref };
  return null;
}
