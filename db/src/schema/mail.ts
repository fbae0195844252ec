import { LANGUAGES, MAIL_KINDS, MAIL_STATUSES } from "@ticketing/shared/constants";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id } from "./columns.ts";

/**
 * Mail outbox (docs/design.md §2): written in the transaction that causes the mail, delivered and retried by a worker.
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: id(),
    kind: text("kind", { enum: MAIL_KINDS }).notNull(),
    to: text("to").notNull(),
    language: text("language", { enum: LANGUAGES }).notNull().default("en"),
    /** What the renderer needs (ids, links); the message is rendered at delivery. */
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: MAIL_STATUSES }).notNull().default("pending"),
    subject: text("subject"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: text("next_attempt_at"),
    /** The worker (process) holding the mail's claim while `next_attempt_at` is its lease end. */
    claimedBy: text("claimed_by"),
    sentAt: text("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_status").on(t.status, t.nextAttemptAt)],
);
