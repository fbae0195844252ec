// A change to an event or to its element tree (docs/decisions/0031): refused while the event is locked for the user,
// and written together with what it does to the event's moderation — an approved event changed by an organiser
// needs a new approval — in the same transaction, so that no change ever goes public under an older approval.
import { and, type Db, eq, run, schema } from "@ticketing/db";
import type { ModerationStatus } from "@ticketing/shared/constants";
import { areCommunicationTextsLocked, moderationAfterChange } from "@ticketing/shared/event-status";
import { conflict } from "../../lib/errors.ts";
import { assertEditable, type Event, type User } from "../accounts/access.ts";

export interface EventChange {
  /** The moderation the event will have once the change is written (as read before it). */
  moderationAfter: ModerationStatus;
  /** Run by the change's own transaction: the event's moderation as the change leaves it. */
  record(tx: Db): Generator<unknown, void, unknown>;
}

/**
 * A change of `event` by `user`, or 409 when the event is locked for them: any change of a draft (any event for a
 * superuser), or only its communication texts (`"texts"`) while it is public. A superuser's change keeps the
 * moderation as it is: they are the moderators.
 */
export function startEventChange(
  event: Event,
  user: User,
  supportEmail: string,
  scope: "event" | "texts" = "event",
): EventChange {
  if (scope === "event") assertEditable(event, user, supportEmail);
  else if (areCommunicationTextsLocked(event.status, user.isSuperuser))
    throw conflict("errors.editing_locked", { support: supportEmail });
  return {
    moderationAfter: user.isSuperuser
      ? event.moderationStatus
      : moderationAfterChange(event.status, event.moderationStatus),
    *record(tx) {
      if (user.isSuperuser) return;
      // Read inside the write: an approval given since the event was read is undone by this change too.
      const current = yield* run(
        tx
          .select({ status: schema.events.status, moderationStatus: schema.events.moderationStatus })
          .from(schema.events)
          .where(eq(schema.events.id, event.id))
          .get(),
      );
      if (!current) return;
      const after = moderationAfterChange(current.status, current.moderationStatus);
      if (after === current.moderationStatus) return;
      yield* run(
        tx
          .update(schema.events)
          .set({ moderationStatus: after, moderationDescription: null })
          .where(and(eq(schema.events.id, event.id), eq(schema.events.moderationStatus, current.moderationStatus)))
          .run(),
      );
    },
  };
}
