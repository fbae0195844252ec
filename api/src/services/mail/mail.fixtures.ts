// The mail tests' database and helpers: a migrated database per driver whose outbox is emptied after each test,
// the mail configuration writing to its directory, and a transport that records what it sends.
import { type Database, type Driver, eq, schema } from "@ticketing/db";
import { afterAll, afterEach, beforeAll, vi } from "vitest";
import { newTicketSigningKey } from "../tickets/ticket-codes.ts";
import { createTestDatabase, type TestDatabase } from "../tickets/tickets.fixtures.ts";
import type { MailTransport, OutgoingMail } from "./transport.ts";

const { mailOutbox } = schema;

export interface MailTestConfig {
  dataDir: string;
  publicUrl: string;
  smtpUrl: undefined;
  mailFrom: string;
  logMails: boolean;
  secretKey: string;
  ticketSigningKey: string;
}

/** Registers the hooks of a test file's outbox on `driver`; its fields are set once `beforeAll` has run. */
export function useOutboxDatabase(driver: Driver) {
  const outbox = {} as { test: TestDatabase; database: Database; config: MailTestConfig };
  beforeAll(async () => {
    outbox.test = await createTestDatabase(driver);
    outbox.database = outbox.test.database;
    outbox.config = {
      dataDir: outbox.test.directory,
      publicUrl: "http://localhost:3000",
      smtpUrl: undefined,
      mailFrom: "Ticketing <no-reply@example.org>",
      logMails: true,
      secretKey: "mail-test-secret",
      ticketSigningKey: newTicketSigningKey(),
    };
  });
  afterAll(() => outbox.test.dispose());
  afterEach(async () => {
    vi.restoreAllMocks();
    // Each test starts with an empty outbox.
    await outbox.database.transaction(function* (tx) {
      yield tx.delete(mailOutbox).run();
    });
  });
  return outbox;
}

export async function outboxRow(database: Database, id: number) {
  const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  if (!row) throw new Error(`no mail ${id}`);
  return row;
}

/** A transport that remembers what it was given, taking a little time like a real one. */
export function recordingTransport(): MailTransport & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return {
    sent,
    async send(mail) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      sent.push(mail);
    },
  };
}
