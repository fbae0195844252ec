import type { ApiTokenScope } from "@ticketing/shared/api-scopes";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id } from "./columns.ts";
import { units, users } from "./users-units.ts";

/**
 * A unit's API tokens (docs/decisions/0044): only the SHA-256 of the token is kept, never its text, which its owner
 * sees once; a revoked token keeps its row (when it was last used stays readable) and no longer authenticates.
 */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: id(),
    unitId: integer("unit_id")
      .notNull()
      .references(() => units.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** hex SHA-256 of the whole token (`tkt_…`): what a bearer is looked up by. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The token's first characters (`tkt_AbCd1234`), to recognise it in the list. */
    prefix: text("prefix").notNull(),
    /** JSON array of API_TOKEN_SCOPES. */
    scopes: text("scopes", { mode: "json" }).$type<ApiTokenScope[]>().notNull(),
    /** The owner who created it: what the token does is recorded as theirs (a check-in's "by"). */
    createdById: integer("created_by_id")
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    /** Written at most once a minute per token (services/accounts/api-tokens.ts). */
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("api_tokens_unit").on(t.unitId)],
);
