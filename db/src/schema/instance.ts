// What every API process of one installation shares through the database (docs/design.md §2: stateless replicas).
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Secrets generated once per installation (the product's secret key, the ticket signing key), when the environment
 * does not give them: the first process to start writes its value, every other one reads it back.
 */
export const instanceSecrets = sqliteTable("instance_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

/**
 * Rate-limit windows (api/src/lib/rate-limit.ts), in the shape rate-limiter-flexible's Drizzle store expects: the
 * attempts counted under a key, and when its window ends.
 */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    points: integer("points").notNull().default(0),
    expire: integer("expire", { mode: "timestamp_ms" }),
  },
  (table) => [index("rate_limits_expire").on(table.expire)],
);
