// Back-office accounts (issue 3): registration with a verification link, password reset and change.
// Links carry a random token; only its hash is stored; each is single-use, expires, and is compared in
// constant time (the hash lookup plus timingSafeEqual).
import { randomBytes, timingSafeEqual } from "node:crypto";
import { and, type Database, type Db, desc, eq, gt, isNull, run, schema, sql } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import type {
  PasswordChange,
  PasswordReset,
  PasswordResetRequest,
  Registration,
  TokenPair,
} from "@ticketing/shared/schemas/auth";
import type { AppDeps } from "../../context.ts";
import { invalid } from "../../lib/errors.ts";
import { hashPassword, verifyPassword } from "../../lib/passwords.ts";
import { RATE_RULES } from "../../lib/rate-limit.ts";
import { hashToken } from "../../lib/tokens.ts";
import { enqueueMail } from "../mail/queue.ts";
import type { User } from "./access.ts";
import { insertUser, issueTokens, type Requester } from "./sessions.ts";

const VERIFY_TTL_MS = 3 * 86_400_000;
const RESET_TTL_MS = 60 * 60_000;

export const encodeUserId = (id: number) => Buffer.from(String(id)).toString("base64url");
export function decodeUserId(value: string): number | null {
  const text = Buffer.from(value, "base64url").toString();
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

type Purpose = "register_verify" | "password_reset";

/** Issues a single-use token inside a transaction (older unused tokens of the same purpose are dropped). */
function* issueUserToken(tx: Db, userId: number, purpose: Purpose, now: Date) {
  const token = randomBytes(32).toString("base64url");
  yield* run(
    tx
      .delete(schema.userTokens)
      .where(
        and(
          eq(schema.userTokens.userId, userId),
          eq(schema.userTokens.purpose, purpose),
          isNull(schema.userTokens.usedAt),
        ),
      )
      .run(),
  );
  yield* run(
    tx
      .insert(schema.userTokens)
      .values({
        userId,
        purpose,
        tokenHash: hashToken(token),
        expiresAt: new Date(
          now.getTime() + (purpose === "register_verify" ? VERIFY_TTL_MS : RESET_TTL_MS),
        ).toISOString(),
      })
      .run(),
  );
  return token;
}

/** Marks the token used if it is the user's, unused and unexpired; false otherwise. Atomic: a second use fails. */
function* consumeUserToken(tx: Db, userId: number, purpose: Purpose, token: string, now: Date) {
  const candidates = yield* run(
    tx
      .select()
      .from(schema.userTokens)
      .where(
        and(
          eq(schema.userTokens.userId, userId),
          eq(schema.userTokens.purpose, purpose),
          isNull(schema.userTokens.usedAt),
          gt(schema.userTokens.expiresAt, now.toISOString()),
        ),
      )
      .orderBy(desc(schema.userTokens.id))
      .all(),
  );
  const presented = Buffer.from(hashToken(token), "hex");
  const match = candidates.find((row) => {
    const stored = Buffer.from(row.tokenHash, "hex");
    return stored.length === presented.length && timingSafeEqual(stored, presented);
  });
  if (!match) return false;
  yield* run(
    tx.update(schema.userTokens).set({ usedAt: now.toISOString() }).where(eq(schema.userTokens.id, match.id)).run(),
  );
  return true;
}

/**
 * Self-registration, done after the answer (`registerAccount`). A taken address gets the same mail-queuing work as
 * a new one: one transaction queues one mail either way — the verification link for a new account, or for the
 * owner of the address a note that someone tried to register with it, with the link to choose a new password.
 */
export async function register(
  database: Database,
  input: {
    email: string;
    password: string;
    firstName: string;
    lastName: string;
    language: Language;
    publicUrl: string;
  },
  passwordHash: string,
  now: Date,
) {
  const email = input.email.trim().toLowerCase();
  await database.transaction(function* (tx) {
    const existing = yield* run(
      tx.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email)).get(),
    );
    if (existing) {
      yield* enqueueMail(tx, {
        kind: "register_existing",
        to: email,
        language: input.language,
        payload: { link: `${input.publicUrl}/admin/auth/password-reset-request` },
      });
      return;
    }
    const user = yield* insertUser(tx, { ...input, email, passwordHash, verified: false });
    const token = yield* issueUserToken(tx, user.id, "register_verify", now);
    yield* enqueueMail(tx, {
      kind: "register_verify",
      to: email,
      language: input.language,
      payload: { link: `${input.publicUrl}/admin/auth/register/verify/${encodeUserId(user.id)}/${token}` },
    });
  });
}

export async function verifyRegistration(database: Database, userIdB64: string, hash: string, now: Date) {
  const userId = decodeUserId(userIdB64);
  const ok =
    userId !== null &&
    (await database.transaction(function* (tx) {
      if (!(yield* consumeUserToken(tx, userId, "register_verify", hash, now))) return false;
      yield* run(
        tx.update(schema.users).set({ emailVerifiedAt: now.toISOString() }).where(eq(schema.users.id, userId)).run(),
      );
      return true;
    }));
  if (!ok) throw invalid("errors.verification_link_invalid");
}

export async function requestPasswordReset(
  database: Database,
  input: { email: string; language: Language; publicUrl: string },
  now: Date,
) {
  const user = await database.db
    .select()
    .from(schema.users)
    .where(eq(schema.users.email, input.email.trim().toLowerCase()))
    .get();
  if (!user?.isActive) return; // neutral: the answer is the same
  await database.transaction(function* (tx) {
    const token = yield* issueUserToken(tx, user.id, "password_reset", now);
    yield* enqueueMail(tx, {
      kind: "password_reset",
      to: user.email,
      language: input.language,
      payload: { link: `${input.publicUrl}/admin/auth/password-reset-request/${encodeUserId(user.id)}/${token}` },
    });
  });
}

/**
 * Sets a new password through an emailed link; every session of the user is ended. Answers the account (its
 * email), whose owner the link proved the caller to be.
 */
export async function resetPassword(
  database: Database,
  input: { userIdB64: string; tokenB64: string; password: string },
  now: Date,
): Promise<string> {
  const userId = decodeUserId(input.userIdB64);
  const passwordHash = await hashPassword(input.password);
  const account =
    userId !== null &&
    (await database.transaction(function* (tx) {
      if (!(yield* consumeUserToken(tx, userId, "password_reset", input.tokenB64, now))) return null;
      // Following the emailed link also proves the address.
      const user = yield* run(tx.select().from(schema.users).where(eq(schema.users.id, userId)).get());
      yield* run(
        tx
          .update(schema.users)
          .set({ passwordHash, emailVerifiedAt: user?.emailVerifiedAt ?? now.toISOString() })
          .where(eq(schema.users.id, userId))
          .run(),
      );
      yield* endSessions(tx, userId, now);
      return user?.email ?? null;
    }));
  if (!account) throw invalid("errors.reset_link_invalid");
  return account;
}

/**
 * Changes the password of a signed-in user; every session is ended, the caller's too, who gets new tokens
 * signed at the returned session version.
 */
export async function changePassword(
  database: Database,
  user: User,
  input: { currentPassword: string; password: string },
  now: Date,
): Promise<number> {
  if (!(await verifyPassword(input.currentPassword, user.passwordHash)))
    throw invalid("errors.current_password_wrong", { current_password: "errors.current_password_wrong" });
  const passwordHash = await hashPassword(input.password);
  return database.transaction(function* (tx) {
    yield* run(tx.update(schema.users).set({ passwordHash }).where(eq(schema.users.id, user.id)).run());
    return yield* endSessions(tx, user.id, now);
  });
}

/**
 * Ends every session of the user after a password reset or change: their refresh tokens are revoked and their
 * session version raised, which refuses the access tokens issued before (services/auth.ts `authenticate`).
 * Returns the new version.
 */
function* endSessions(tx: Db, userId: number, now: Date) {
  yield* run(
    tx
      .update(schema.refreshTokens)
      .set({ revokedAt: now.toISOString() })
      .where(and(eq(schema.refreshTokens.userId, userId), isNull(schema.refreshTokens.revokedAt)))
      .run(),
  );
  const user = yield* run(
    tx
      .update(schema.users)
      .set({ sessionVersion: sql`${schema.users.sessionVersion} + 1` })
      .where(eq(schema.users.id, userId))
      .returning({ sessionVersion: schema.users.sessionVersion })
      .get(),
  );
  return user?.sessionVersion ?? 0;
}

// --- The account calls, as the API receives them: rate limits, mail delivery, new tokens ------------------------

/**
 * `POST /auth/register`: limited per address; the mail is delivered without waiting for the worker's tick. The
 * answer is the same for a taken and a new address, and given before the work that differs between them.
 */
export async function registerAccount(
  { database, config, onMailQueued, afterAnswer }: AppDeps,
  requester: Requester,
  body: Registration,
  now: Date,
) {
  await requester.limiter.hit(`register:ip:${requester.ip}`, RATE_RULES.registerPerIp);
  // The slow part, the same for every address, before answering: a flood of registrations waits for it.
  const passwordHash = await hashPassword(body.password);
  // What differs between a taken and a new address comes after the answer (issue 28, finding 11).
  const input = { ...body, language: requester.language, publicUrl: config.publicUrl };
  afterAnswer.schedule(async () => {
    await register(database, input, passwordHash, now);
    onMailQueued?.();
  });
}

/**
 * `POST /auth/password-reset-request`: limited per address and per account. The answer waits for the limits only,
 * the same for every address: looking the account up, issuing its link and queuing the mail come after it (it
 * answered in 20.5 ms for an existing account, 15.4 ms for an unknown one: issue 28, finding 11).
 */
export async function sendPasswordResetLink(
  { database, config, onMailQueued, afterAnswer }: AppDeps,
  requester: Requester,
  body: PasswordResetRequest,
  now: Date,
) {
  await requester.limiter.hit(`reset:ip:${requester.ip}`, RATE_RULES.resetPerIp);
  await requester.limiter.hit(`reset:account:${body.email.trim().toLowerCase()}`, RATE_RULES.resetPerAccount);
  const input = { email: body.email, language: requester.language, publicUrl: config.publicUrl };
  afterAnswer.schedule(async () => {
    await requestPasswordReset(database, input, now);
    onMailQueued?.();
  });
}

/**
 * `POST /auth/password-reset`: limited per address, as the request for the link. Answers the account, whose device
 * the caller's browser now is (docs/decisions/0033): the owner locked out of an account under attack gets back in.
 */
export async function resetPasswordWithLink(database: Database, requester: Requester, body: PasswordReset, now: Date) {
  await requester.limiter.hit(`reset:ip:${requester.ip}`, RATE_RULES.resetPerIp);
  return resetPassword(database, body, now);
}

/** `POST /auth/password-change`: every session ends, and the caller gets a new one. */
export async function changeOwnPassword(
  { database, config }: AppDeps,
  user: User,
  body: PasswordChange,
  now: Date,
): Promise<TokenPair> {
  const sessionVersion = await changePassword(database, user, body, now);
  return issueTokens(database, config.secretKey, { userId: user.id, frontendLoginIds: [], sessionVersion }, now);
}
