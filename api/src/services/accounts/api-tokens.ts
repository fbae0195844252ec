// A unit's API tokens (issue 35, docs/decisions/0044): its owners create, list and revoke them; a request that
// carries one acts as a member of that unit only, within the token's scopes (access.ts `requireStaff`).
import { randomBytes } from "node:crypto";
import { and, type Database, eq, isNull, lt, or, run, schema } from "@ticketing/db";
import type { ApiToken, ApiTokenCreate, CreatedApiToken } from "@ticketing/shared/schemas/api-tokens";
import { notFound } from "../../lib/errors.ts";
import { countRows, type ListOptions, type ListQuery, listOrder } from "../../lib/list-query.ts";
import { hashToken } from "../../lib/tokens.ts";
import { type Authenticated, principalOfToken, type User } from "./access.ts";
import { managedUnit } from "./units.ts";

type ApiTokenRow = typeof schema.apiTokens.$inferSelect;

/** What starts every API token: tells it from a session's JWT (which starts with `ey`) at a glance. */
export const API_TOKEN_PREFIX = "tkt_";
/** How much of the token the list shows: the prefix and 8 of its 43 random characters. */
const SHOWN = API_TOKEN_PREFIX.length + 8;
/** `last_used_at` is written at most this often per token: not once per request. */
export const LAST_USED_PRECISION_MS = 60_000;

const COLUMNS = {
  id: schema.apiTokens.id,
  name: schema.apiTokens.name,
  createdAt: schema.apiTokens.createdAt,
  lastUsedAt: schema.apiTokens.lastUsedAt,
  revokedAt: schema.apiTokens.revokedAt,
} as const;

/** A unit's tokens list: newest last unless told. */
export const API_TOKEN_LIST: ListOptions = { sortable: Object.keys(COLUMNS) };

/** A new token's text: `tkt_` and 32 random bytes in base64url. */
export const newApiToken = () => `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;

/** Whether a bearer is an API token rather than a session's access token. */
export const isApiToken = (bearer: string) => bearer.startsWith(API_TOKEN_PREFIX);

/** The row as answered: never the hash. */
function present({ tokenHash: _hash, ...token }: ApiTokenRow): ApiToken {
  return token;
}

/** The tokens of a unit the user owns (or any, for a superuser); a member gets 403, an outsider 404. */
export async function listApiTokens(
  database: Database,
  user: User,
  unitId: number,
  list: ListQuery,
): Promise<{ rows: ApiToken[]; total: number }> {
  const { db } = database;
  const unit = await managedUnit(db, user, unitId);
  const where = eq(schema.apiTokens.unitId, unit.id);
  const rows = await db
    .select()
    .from(schema.apiTokens)
    .where(where)
    .orderBy(listOrder(list, COLUMNS))
    .limit(list.limit)
    .offset(list.offset)
    .all();
  return { rows: rows.map(present), total: await countRows(db, schema.apiTokens, where) };
}

/** A new token of a unit the user owns: its text is in this answer only; the database keeps its SHA-256. */
export async function createApiToken(
  database: Database,
  user: User,
  unitId: number,
  body: ApiTokenCreate,
  now: Date,
): Promise<CreatedApiToken> {
  const unit = await managedUnit(database.db, user, unitId);
  const token = newApiToken();
  const row = await database.transaction(function* (tx) {
    return yield* run(
      tx
        .insert(schema.apiTokens)
        .values({
          unitId: unit.id,
          name: body.name,
          tokenHash: hashToken(token),
          prefix: token.slice(0, SHOWN),
          scopes: body.scopes,
          createdById: user.id,
          createdAt: now.toISOString(),
        })
        .returning()
        .get(),
    );
  });
  return { ...present(row), token };
}

/** Revokes a token of a unit the user owns; the row stays. Revoking it again changes nothing. */
export async function revokeApiToken(
  database: Database,
  user: User,
  unitId: number,
  tokenId: number,
  now: Date,
): Promise<ApiToken> {
  const unit = await managedUnit(database.db, user, unitId);
  const row = await database.transaction(function* (tx) {
    const where = and(eq(schema.apiTokens.id, tokenId), eq(schema.apiTokens.unitId, unit.id));
    yield* run(
      tx
        .update(schema.apiTokens)
        .set({ revokedAt: now.toISOString() })
        .where(and(where, isNull(schema.apiTokens.revokedAt)))
        .run(),
    );
    return yield* run(tx.select().from(schema.apiTokens).where(where).get());
  });
  if (!row) throw notFound();
  return present(row);
}

/**
 * The claims of a request that carries an API token: no user and no ticket-office login, and the principal it acts as
 * on back-office routes its scopes allow; null for a token that is unknown or revoked. Records when it was used, at
 * most once a minute (a conditional write: two requests at once write once), so a scanner at the door does not
 * write a row per scan.
 */
export async function authenticateApiToken(
  database: Database,
  token: string,
  now: Date,
): Promise<Authenticated | null> {
  const found = await database.db
    .select({ token: schema.apiTokens, creator: schema.users })
    .from(schema.apiTokens)
    .innerJoin(schema.users, eq(schema.users.id, schema.apiTokens.createdById))
    .where(eq(schema.apiTokens.tokenHash, hashToken(token)))
    .get();
  if (!found || found.token.revokedAt !== null) return null;
  const { token: row, creator } = found;
  const since = new Date(now.getTime() - LAST_USED_PRECISION_MS).toISOString();
  if (row.lastUsedAt === null || row.lastUsedAt < since)
    await database.transaction(function* (tx) {
      yield* run(
        tx
          .update(schema.apiTokens)
          .set({ lastUsedAt: now.toISOString() })
          .where(
            and(
              eq(schema.apiTokens.id, row.id),
              or(isNull(schema.apiTokens.lastUsedAt), lt(schema.apiTokens.lastUsedAt, since)),
            ),
          )
          .run(),
      );
    });
  return {
    userId: null,
    frontendLoginIds: [],
    sessionVersion: 0,
    tokenPrincipal: principalOfToken(creator, { tokenId: row.id, unitId: row.unitId, scopes: row.scopes }),
  };
}
