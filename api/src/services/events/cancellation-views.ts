// An event's cancellation as the rest of the product reads it (docs/decisions/0047-cancelling-an-event.md): whether
// it is cancelled, and the organiser's message in the reader's language. A leaf: the event's status rules, the ticket
// office's answers and the mails read it without the cancellation's service.
import { type Db, eq, schema } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";

export const findCancellation = (db: Db, eventId: number) =>
  db.select().from(schema.eventCancellations).where(eq(schema.eventCancellations.eventId, eventId)).get();

/** The ticket office's view of a cancellation: the message in the reader's language (else in the other). */
export async function publicCancellationOf(db: Db, eventId: number, language: Language) {
  const cancellation = await findCancellation(db, eventId);
  if (!cancellation) return null;
  const message =
    language === "fr" ? cancellation.messageFr || cancellation.message : cancellation.message || cancellation.messageFr;
  return { message, cancelledAt: cancellation.createdAt };
}
