// Ticket-office logins beyond anonymous (docs/design.md §4 "Ticket-office logins"): a trusted email proved by a
// single-use link, or a token signed by a third party with the event's secret key.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { and, type Database, type Db, eq, gt, inArray, run, schema } from "@ticketing/db";
import type { AccessMethod, Language } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import type {
  FrontendLogin,
  FrontendSignIn,
  ThirdPartyLoginCreate,
  TrustedEmailLoginCreate,
  TrustedEmailLoginValidation,
} from "@ticketing/shared/schemas/auth";
import { sitePath } from "@ticketing/shared/site-path";
import { provesEmail, ticketOfficeUrl } from "@ticketing/shared/ticket-office";
import { verify } from "hono/jwt";
import type { AppDeps } from "../../context.ts";
import { conflict, forbidden, invalid, notFound } from "../../lib/errors.ts";
import { RATE_RULES } from "../../lib/rate-limit.ts";
import { type AccessClaims, hashToken } from "../../lib/tokens.ts";
import { type Authenticated, canSeeUnit, type Event, requireUser } from "../accounts/access.ts";
import { carriedClaims, findEventByRegistrationModule, issueTokens, type Requester } from "../accounts/sessions.ts";
import { enqueueMail } from "../mail/queue.ts";

const LINK_TTL_MS = 24 * 60 * 60_000;

export async function assertAccessMethod(database: Database, event: Event, method: AccessMethod) {
  const row = await database.db
    .select()
    .from(schema.eventAccessMethods)
    .where(and(eq(schema.eventAccessMethods.eventId, event.id), eq(schema.eventAccessMethods.method, method)))
    .get();
  if (!row) throw conflict("errors.access_method_disabled");
  return row;
}

type Tx = Db;

/** The one frontend login of (event, testing, email), created on first use. */
function* loginForEmail(
  tx: Tx,
  input: { event: Event; testing: boolean; email: string; method: AccessMethod; userId: number | null },
) {
  const existing = yield* run(
    tx
      .select()
      .from(schema.frontendLogins)
      .where(
        and(
          eq(schema.frontendLogins.eventId, input.event.id),
          eq(schema.frontendLogins.testing, input.testing),
          eq(schema.frontendLogins.email, input.email),
        ),
      )
      .get(),
  );
  if (existing) return existing;
  return yield* run(
    tx
      .insert(schema.frontendLogins)
      .values({
        eventId: input.event.id,
        testing: input.testing,
        method: input.method,
        email: input.email,
        username: input.email,
        userId: input.userId,
      })
      .returning()
      .get(),
  );
}

export async function requestTrustedEmailLogin(
  database: Database,
  input: {
    event: Event;
    testing: boolean;
    email: string;
    nextUrl?: string;
    userId: number | null;
    language: Language;
    publicUrl: string;
  },
  now: Date,
) {
  await assertAccessMethod(database, input.event, "trusted_email");
  const email = input.email.trim().toLowerCase();
  const token = randomBytes(32).toString("base64url");
  await database.transaction(function* (tx) {
    const login = yield* loginForEmail(tx, { ...input, email, method: "trusted_email" });
    yield* run(
      tx
        .update(schema.frontendLogins)
        .set({
          validationTokenHash: hashToken(token),
          validationExpiresAt: new Date(now.getTime() + LINK_TTL_MS).toISOString(),
        })
        .where(eq(schema.frontendLogins.id, login.id))
        .run(),
    );
    // Checked again here, where the link is built: the mail is genuine, so its link must not lead off the site.
    const nextUrl = sitePath(input.nextUrl);
    const next = nextUrl ? `?${new URLSearchParams({ nextUrl })}` : "";
    yield* enqueueMail(tx, {
      kind: "trusted_email_login",
      to: email,
      language: input.language,
      payload: {
        link: `${ticketOfficeUrl(input.publicUrl, input.event, input.testing, `login/verify/${login.id}/${token}`)}${next}`,
        // The event's title in the language the mail is written in (docs/decisions/0043).
        event_title: inLanguage(input.event.frontendTitle, input.event.frontendTitleFr, input.language),
      },
    });
  });
}

/** Consumes the emailed link (single use, 24 h) and signs the visitor in. */
export async function validateTrustedEmailLogin(
  database: Database,
  secret: string,
  input: { event: Event; testing: boolean; loginPk: number; validationToken: string; previous: AccessClaims | null },
  now: Date,
) {
  const nowIso = now.toISOString();
  const login = await database.transaction(function* (tx) {
    const row = yield* run(
      tx
        .select()
        .from(schema.frontendLogins)
        .where(
          and(
            eq(schema.frontendLogins.id, input.loginPk),
            eq(schema.frontendLogins.eventId, input.event.id),
            eq(schema.frontendLogins.testing, input.testing),
            gt(schema.frontendLogins.validationExpiresAt, nowIso),
          ),
        )
        .get(),
    );
    const presented = Buffer.from(hashToken(input.validationToken), "hex");
    const stored = Buffer.from(row?.validationTokenHash ?? "", "hex");
    if (!row || stored.length !== presented.length || !timingSafeEqual(stored, presented)) return null;
    return yield* run(
      tx
        .update(schema.frontendLogins)
        .set({ validationTokenHash: null, validationExpiresAt: null, validatedAt: nowIso })
        .where(
          and(
            eq(schema.frontendLogins.id, row.id),
            eq(schema.frontendLogins.validationTokenHash, row.validationTokenHash as string),
          ),
        )
        .returning()
        .get(),
    );
  });
  if (!login) throw invalid("errors.trusted_email_invalid");
  return signIn(database, secret, login, input.previous, now);
}

/** A token signed HS256 with the event's third-party secret key, carrying the buyer's email and an expiry. */
export async function thirdPartyLogin(
  database: Database,
  secret: string,
  input: { event: Event; testing: boolean; token: string; previous: AccessClaims | null; userId: number | null },
  now: Date,
) {
  const method = await assertAccessMethod(database, input.event, "third_party");
  let email: string | null = null;
  try {
    if (!method.secretKey) throw new Error("no key");
    const claims = await verify(input.token, method.secretKey, "HS256");
    if (typeof claims.exp !== "number" || claims.exp * 1000 < now.getTime()) throw new Error("expired");
    email =
      typeof claims.email === "string" && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(claims.email)
        ? claims.email.trim().toLowerCase()
        : null;
  } catch {
    email = null;
  }
  if (!email) throw invalid("errors.third_party_failed");
  const address = email;
  const login = await database.transaction(function* (tx) {
    const row = yield* loginForEmail(tx, {
      event: input.event,
      testing: input.testing,
      email: address,
      method: "third_party",
      userId: input.userId,
    });
    return yield* run(
      tx
        .update(schema.frontendLogins)
        .set({ validatedAt: now.toISOString() })
        .where(eq(schema.frontendLogins.id, row.id))
        .returning()
        .get(),
    );
  });
  return signIn(database, secret, login ?? null, input.previous, now);
}

async function signIn(
  database: Database,
  secret: string,
  login: typeof schema.frontendLogins.$inferSelect | null,
  previous: AccessClaims | null,
  now: Date,
) {
  if (!login) throw invalid("errors.third_party_failed");
  const tokens = await issueTokens(database, secret, carriedClaims(previous, login.id), now);
  return { ...tokens, login };
}

/** Replaces the event's access methods; the third-party method keeps (or gets) its secret key. */
export function* setAccessMethods(tx: Tx, eventId: number, methods: AccessMethod[]) {
  const current = yield* run(
    tx.select().from(schema.eventAccessMethods).where(eq(schema.eventAccessMethods.eventId, eventId)).all(),
  );
  for (const row of current)
    if (!methods.includes(row.method))
      yield* run(tx.delete(schema.eventAccessMethods).where(eq(schema.eventAccessMethods.id, row.id)).run());
  for (const method of methods)
    if (!current.some((row) => row.method === method))
      yield* run(
        tx
          .insert(schema.eventAccessMethods)
          .values({
            eventId,
            method,
            secretKey: method === "third_party" ? randomBytes(32).toString("base64url") : null,
          })
          .run(),
      );
}

// --- The ticket-office sign-in calls, as the API receives them -------------------------------------------------

/**
 * The event a ticket-office login is for. Testing (preview) logins are for staff of the event's unit only
 * (docs/design.md §4 "Testing (preview) mode"); real ones need a public (or closed) event.
 */
export async function officeOf(
  database: Database,
  auth: Authenticated | null,
  activeModuleId: number,
  isTesting: boolean,
) {
  const event = await findEventByRegistrationModule(database, activeModuleId);
  if (!isTesting) {
    if (event.status !== "public" && event.status !== "closed") throw notFound("errors.event_not_found");
    return { event, userId: null };
  }
  const user = await requireUser(database.db, auth);
  if (!(await canSeeUnit(database.db, user, event.unitId))) throw forbidden();
  return { event, userId: user.id };
}

/** `POST /auth/trusted-email-login`: mails a single-use login link, limited per address. */
export async function sendTrustedEmailLink(
  { database, config, onMailQueued }: AppDeps,
  auth: Authenticated | null,
  requester: Requester,
  body: TrustedEmailLoginCreate,
  now: Date,
) {
  await requester.limiter.hit(`trusted:account:${body.email.trim().toLowerCase()}`, RATE_RULES.resetPerAccount);
  const { event, userId } = await officeOf(database, auth, body.activeModuleId, body.isTesting);
  await requestTrustedEmailLogin(
    database,
    {
      event,
      testing: body.isTesting,
      email: body.email,
      nextUrl: body.nextUrl,
      userId,
      language: requester.language,
      publicUrl: config.publicUrl,
    },
    now,
  );
  onMailQueued?.();
}

/** `POST /auth/trusted-email-login/validate`: the emailed link signs the visitor in. */
export async function signInWithTrustedEmail(
  { database, config }: AppDeps,
  auth: Authenticated | null,
  body: TrustedEmailLoginValidation,
  now: Date,
): Promise<FrontendSignIn> {
  const { event } = await officeOf(database, auth, body.activeModuleId, body.isTesting);
  return validateTrustedEmailLogin(
    database,
    config.secretKey,
    { event, testing: body.isTesting, loginPk: body.loginPk, validationToken: body.validationToken, previous: auth },
    now,
  );
}

/** `POST /auth/third-party-login`: a token signed by a third party with the event's key. */
export async function signInWithThirdParty(
  { database, config }: AppDeps,
  auth: Authenticated | null,
  body: ThirdPartyLoginCreate,
  now: Date,
): Promise<FrontendSignIn> {
  const { event, userId } = await officeOf(database, auth, body.activeModuleId, body.isTesting);
  return thirdPartyLogin(
    database,
    config.secretKey,
    { event, testing: body.isTesting, token: body.token, previous: auth, userId },
    now,
  );
}

/** docs/specification.md §7: the caller's own logins, all of them or those of `wanted` (others' ids are left out). */
export async function listOwnFrontendLogins(
  db: Db,
  loginIds: number[],
  wanted: number[] | undefined,
): Promise<FrontendLogin[]> {
  const ids = wanted ? wanted.filter((id) => loginIds.includes(id)) : loginIds;
  const rows = ids.length
    ? await db.select().from(schema.frontendLogins).where(inArray(schema.frontendLogins.id, ids)).all()
    : [];
  return rows.map((row) => ({
    id: row.id,
    event: row.eventId,
    eventId: row.eventId,
    testing: row.testing,
    email: row.email,
    username: row.username,
    method: row.method,
    emailProved: provesEmail(row),
  }));
}
