// What a load balancer and an operator ask of a process (docs/decisions/0022): may it take requests, and is
// anything wrong behind it. States and counts only: the answer is public.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { count, type Database, eq, schema, sql } from "@ticketing/db";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { z } from "zod";
import { log } from "../../lib/log.ts";

/** Where the process is in its life: `starting` until it serves, `draining` once told to stop. */
export type Phase = "starting" | "ready" | "draining";

/** The process's phase (server.ts moves it) and its database once opened, read by every health answer. */
export class Lifecycle {
  phase: Phase = "starting";
  database?: Database;
}

const HEALTH_STATUSES = ["ok", "starting", "draining", "failing"] as const;

export const Health = z.object({
  /** `ok` answers 200; anything else 503, so that a load balancer sends its requests elsewhere. */
  status: z.enum(HEALTH_STATUSES),
  /** A real query answered. */
  database: z.object({ reachable: z.boolean() }),
  /** Migrations the database has, against those of this build; null when the database could not be read. */
  migrations: z.object({ applied: z.number().int().nullable(), expected: z.number().int() }),
  /**
   * The outbox: how long the oldest mail not yet sent has waited (null when none waits), and how many mails were
   * given up after their last attempt. Reported, not failing: the site works while mail waits (docs/decisions/0022).
   */
  mail: z.object({
    oldestUnsentSeconds: z.number().int().nullable(),
    givenUp: z.number().int().nullable(),
  }),
});
export type Health = z.infer<typeof Health>;

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../db/migrations");
/** The build's migrations, by the time drizzle's migrator stamps them with (`folderMillis`). */
const migrationTimes = readMigrationFiles({ migrationsFolder }).map((migration) => migration.folderMillis);

/**
 * Applied as drizzle's migrator counts them: every migration of the journal up to the last one the database
 * recorded (the migrator applies those after it). None before the first migration made the table.
 */
async function appliedMigrations(database: Database): Promise<number> {
  const table = await database.db.get<{ found: number }>(
    sql`select count(*) as found from sqlite_master where type = 'table' and name = '__drizzle_migrations'`,
  );
  if (!table?.found) return 0;
  const last = await database.db.get<{ at: number | null }>(
    sql`select max(created_at) as at from __drizzle_migrations`,
  );
  const at = Number(last?.at ?? Number.NEGATIVE_INFINITY);
  return migrationTimes.filter((time) => time <= at).length;
}

const { mailOutbox } = schema;

/** The outbox's backlog (services/mail.ts): both read through its status index. */
async function outboxBacklog(database: Database, now: Date) {
  const [oldest] = await database.db
    .select({ createdAt: mailOutbox.createdAt })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, "pending"))
    .orderBy(mailOutbox.createdAt)
    .limit(1);
  const [givenUp] = await database.db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, "failed"));
  return {
    oldestUnsentSeconds: oldest ? Math.max(0, Math.floor((now.getTime() - Date.parse(oldest.createdAt)) / 1000)) : null,
    givenUp: givenUp?.n ?? 0,
  };
}

/** The health of this process in `phase`; `database` undefined while the product has not opened it yet. */
export async function checkHealth(database: Database | undefined, phase: Phase, now = new Date()): Promise<Health> {
  const expected = migrationTimes.length;
  let reading: Omit<Health, "status"> = {
    database: { reachable: false },
    migrations: { applied: null, expected },
    mail: { oldestUnsentSeconds: null, givenUp: null },
  };
  if (database) {
    try {
      const applied = await appliedMigrations(database);
      // The outbox exists from the first migration on.
      const backlog = applied > 0 ? await outboxBacklog(database, now) : null;
      reading = {
        database: { reachable: true },
        migrations: { applied, expected },
        mail: { oldestUnsentSeconds: backlog?.oldestUnsentSeconds ?? null, givenUp: backlog?.givenUp ?? null },
      };
    } catch (error) {
      log.warn({ err: error }, "health: the database could not be read");
    }
  }
  return { status: statusOf(phase, reading), ...reading };
}

function statusOf(phase: Phase, reading: Omit<Health, "status">): Health["status"] {
  if (phase !== "ready") return phase;
  const holds = reading.database.reachable && reading.migrations.applied === reading.migrations.expected;
  return holds ? "ok" : "failing";
}

/** The HTTP status of a health answer: a load balancer reads only this. */
export const healthHttpStatus = (health: Health) => (health.status === "ok" ? 200 : 503);
