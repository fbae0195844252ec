// Back-office and ticket-office sessions: logins, token issue and rotation.
import { and, type Database, type Db, eq, gt, isNull, run, schema } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import type { AuthMe, Login, TokenPair } from "@ticketing/shared/schemas/auth";
import { type AppDeps, type Ctx, now as timeOf } from "../../context.ts";
import { presentedDevice } from "../../lib/device-cookies.ts";
import { invalid, notFound, unauthorized } from "../../lib/errors.ts";
import { getDummyHash, hashPassword, needsRehash, verifyPassword } from "../../lib/passwords.ts";
import { loginAttempt, type RateLimiter } from "../../lib/rate-limit.ts";
import {
  type AccessClaims,
  hashToken,
  newOpaqueToken,
  REFRESH_TOKEN_DAYS,
  signAccessToken,
  verifyAccessToken,
} from "../../lib/tokens.ts";
import { type Authenticated, type Event, requireFrontendLogins, requireUser } from "./access.ts";

export type { TokenPair };

/**
 * What the account and sign-in calls need of the request: its rate limiter and address, the caller's language, and
 * the device its browser's device cookie proves for an account (lib/device-cookies.ts), null for none.
 */
export interface Requester {
  limiter: RateLimiter;
  ip: string;
  language: Language;
  deviceFor(account: string): string | null;
}

export const requesterOf = (c: Ctx): Requester => ({
  limiter: c.get("rateLimiter"),
  ip: c.get("clientIp"),
  language: c.get("language"),
  deviceFor: (account) => presentedDevice(c, account, timeOf(c)),
});

/** The account an email signs in to: its address as stored. */
export const accountOf = (email: string) => email.trim().toLowerCase();

/** A new token pair; `family` continues a rotated session, a new login starts one. */
export async function issueTokens(
  database: Database,
  secret: string,
  claims: AccessClaims,
  now: Date,
  family: string = newOpaqueToken(),
): Promise<TokenPair> {
  const refreshToken = newOpaqueToken();
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_DAYS * 86_400_000).toISOString();
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .insert(schema.refreshTokens)
        .values({
          tokenHash: hashToken(refreshToken),
          userId: claims.userId,
          frontendLoginIds: claims.frontendLoginIds,
          expiresAt,
          family,
        })
        .run(),
    );
  });
  return { accessToken: await signAccessToken(secret, claims, now.getTime()), refreshToken };
}

/**
 * The claims of a bearer token, or null when it is not a valid access token or its user's password was reset or
 * changed since it was issued (the user's session version moved on): such a token is as good as none.
 */
export async function authenticate(database: Database, secret: string, token: string): Promise<Authenticated | null> {
  const claims = await verifyAccessToken(secret, token);
  if (!claims?.userId) return claims;
  // The whole row: requireUser takes it from here instead of reading it again.
  const user = await database.db.select().from(schema.users).where(eq(schema.users.id, claims.userId)).get();
  return user?.sessionVersion === claims.sessionVersion ? { ...claims, user } : null;
}

export async function login(database: Database, secret: string, email: string, password: string, now: Date) {
  const user = await database.db
    .select()
    .from(schema.users)
    .where(eq(schema.users.email, email.trim().toLowerCase()))
    .get();
  // Hash even for an unknown account so the answer time does not tell whether it exists.
  const matches = await verifyPassword(password, user?.passwordHash ?? (await getDummyHash()));
  if (!user || !matches || !user.isActive) throw invalid("errors.wrong_credentials");
  if (!user.emailVerifiedAt) throw invalid("errors.email_not_verified");
  if (needsRehash(user.passwordHash)) await upgradePasswordHash(database, user.id, user.passwordHash, password);
  return issueTokens(
    database,
    secret,
    { userId: user.id, frontendLoginIds: [], sessionVersion: user.sessionVersion },
    now,
  );
}

/**
 * Replaces a hash of an older kind (scrypt, or argon2 with weaker parameters) that the password just matched by
 * today's, and nothing else: the user's sessions and their version stay. Guarded by the hash it replaces, so a
 * password changed meanwhile is never overwritten.
 */
async function upgradePasswordHash(database: Database, userId: number, stored: string, password: string) {
  const passwordHash = await hashPassword(password);
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .update(schema.users)
        .set({ passwordHash })
        .where(and(eq(schema.users.id, userId), eq(schema.users.passwordHash, stored)))
        .run(),
    );
  });
}

/**
 * A back-office sign-in, counted against the browser's device cookie for the account, or else the address and the
 * account (lib/rate-limit.ts `loginAttempt`): only a successful one is taken back.
 */
export async function signInWithPassword(
  { database, config }: AppDeps,
  requester: Requester,
  body: Login,
  now: Date,
): Promise<TokenPair> {
  const account = accountOf(body.email);
  const attempt = await loginAttempt(requester.limiter, requester.ip, account, requester.deviceFor(account));
  // A refused sign-in throws here and stays counted.
  const tokens = await login(database, config.secretKey, body.email, body.password, now);
  await attempt.succeeded();
  return tokens;
}

/** Who the caller's token speaks for: a back-office user, ticket-office logins, or both; 401 for neither. */
export async function describeCaller(db: Db, auth: Authenticated | null): Promise<AuthMe> {
  const user = auth?.userId ? await requireUser(db, auth) : null;
  if (!user) requireFrontendLogins(auth);
  return {
    userId: user?.id ?? null,
    frontendLoginIds: auth?.frontendLoginIds ?? [],
    user: user && {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      isSuperuser: user.isSuperuser,
      personalUnitId: user.personalUnitId,
    },
  };
}

/**
 * Rotation: the presented refresh token is revoked and a new pair issued, atomically. A token presented after
 * it was rotated means it was copied: its whole family (the session) is revoked.
 */
export async function refresh(database: Database, secret: string, refreshToken: string, now: Date): Promise<TokenPair> {
  const nowIso = now.toISOString();
  const session = await database.transaction(function* (tx) {
    const tokenHash = hashToken(refreshToken);
    const row = yield* run(
      tx
        .update(schema.refreshTokens)
        .set({ revokedAt: nowIso })
        .where(
          and(
            eq(schema.refreshTokens.tokenHash, tokenHash),
            isNull(schema.refreshTokens.revokedAt),
            gt(schema.refreshTokens.expiresAt, nowIso),
          ),
        )
        .returning()
        .get(),
    );
    if (row) return { userId: row.userId, frontendLoginIds: row.frontendLoginIds, family: row.family };
    const reused = yield* run(
      tx.select().from(schema.refreshTokens).where(eq(schema.refreshTokens.tokenHash, tokenHash)).get(),
    );
    if (reused?.family)
      yield* run(
        tx
          .update(schema.refreshTokens)
          .set({ revokedAt: nowIso })
          .where(and(eq(schema.refreshTokens.family, reused.family), isNull(schema.refreshTokens.revokedAt)))
          .run(),
      );
    return null;
  });
  if (!session) throw unauthorized("errors.invalid_refresh_token");
  const { userId, frontendLoginIds, family } = session;
  let sessionVersion = 0;
  if (userId) {
    const user = await database.db.select().from(schema.users).where(eq(schema.users.id, userId)).get();
    if (!user?.isActive) throw unauthorized("errors.invalid_refresh_token");
    // A reset or change revoked every refresh token issued before it, so this one was issued since.
    sessionVersion = user.sessionVersion;
  }
  return issueTokens(database, secret, { userId, frontendLoginIds, sessionVersion }, now, family);
}

export async function logout(database: Database, refreshToken: string, now: Date) {
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .update(schema.refreshTokens)
        .set({ revokedAt: now.toISOString() })
        .where(and(eq(schema.refreshTokens.tokenHash, hashToken(refreshToken)), isNull(schema.refreshTokens.revokedAt)))
        .run(),
    );
  });
}

export interface NewUser {
  email: string;
  firstName?: string;
  lastName?: string;
  isSuperuser?: boolean;
  verified?: boolean;
}

/** Creates a back-office user with a personal unit they own. */
export async function createUser(database: Database, input: NewUser & { password: string }) {
  const passwordHash = await hashPassword(input.password);
  return database.transaction(function* (tx) {
    const existing = yield* run(
      tx.select().from(schema.users).where(eq(schema.users.email, input.email.trim().toLowerCase())).get(),
    );
    if (existing) throw invalid("errors.account_exists", { email: "errors.account_exists" });
    return yield* insertUser(tx, { ...input, passwordHash });
  });
}

/** The rows of a new user, inside the caller's transaction: the user, their personal unit, its ownership. */
export function* insertUser(tx: Db, input: NewUser & { passwordHash: string }) {
  const email = input.email.trim().toLowerCase();
  const user = yield* run(
    tx
      .insert(schema.users)
      .values({
        email,
        username: email,
        passwordHash: input.passwordHash,
        firstName: input.firstName ?? "",
        lastName: input.lastName ?? "",
        isSuperuser: input.isSuperuser ?? false,
        // Accounts made by staff (command line, seed) are trusted; self-registered ones verify their email.
        emailVerifiedAt: input.verified === false ? null : new Date().toISOString(),
      })
      .returning()
      .get(),
  );
  const unit = yield* run(
    tx
      .insert(schema.units)
      .values({ name: [input.firstName, input.lastName].filter(Boolean).join(" ") || email, email })
      .returning()
      .get(),
  );
  yield* run(tx.insert(schema.memberships).values({ unitId: unit.id, userId: user.id, role: "owner" }).run());
  const updated = yield* run(
    tx.update(schema.users).set({ personalUnitId: unit.id }).where(eq(schema.users.id, user.id)).returning().get(),
  );
  return updated ?? user;
}

export async function findEventByRegistrationModule(database: Database, moduleId: number): Promise<Event> {
  const row = await database.db
    .select({ event: schema.events })
    .from(schema.registrationModules)
    .innerJoin(schema.events, eq(schema.events.id, schema.registrationModules.eventId))
    .where(eq(schema.registrationModules.id, moduleId))
    .get();
  if (!row) throw notFound("errors.event_not_found");
  return row.event;
}

/** A new anonymous frontend login for the event; its token also carries the caller's earlier logins. */
export async function anonymousLogin(
  database: Database,
  secret: string,
  input: { event: Event; testing: boolean; previous: AccessClaims | null; userId: number | null },
  now: Date,
) {
  const login = await database.transaction(function* (tx) {
    const created = yield* run(
      tx
        .insert(schema.frontendLogins)
        .values({
          eventId: input.event.id,
          testing: input.testing,
          method: "anonymous",
          username: "anonymous",
          userId: input.userId,
        })
        .returning()
        .get(),
    );
    return yield* run(
      tx
        .update(schema.frontendLogins)
        .set({ username: `anonymous-${created.id}` })
        .where(eq(schema.frontendLogins.id, created.id))
        .returning()
        .get(),
    );
  });
  const tokens = await issueTokens(database, secret, carriedClaims(input.previous, login.id), now);
  return { ...tokens, login };
}

/**
 * The claims of a ticket-office session that adds a login to the caller's: their logins are kept, and their
 * back-office user, if any, is carried with the version it was signed in at.
 */
export const carriedClaims = (previous: AccessClaims | null, frontendLoginId: number): AccessClaims => ({
  userId: previous?.userId ?? null,
  frontendLoginIds: [...new Set([...(previous?.frontendLoginIds ?? []), frontendLoginId])],
  sessionVersion: previous?.userId ? previous.sessionVersion : 0,
});
