import { inArray, schema } from "@ticketing/db";
import { PASSWORD_MESSAGES, zPassword } from "@ticketing/shared/passwords";
import { sitePath } from "@ticketing/shared/site-path";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Ctx } from "../context.ts";
import { forbidden, notFound } from "../lib/errors.ts";
import { answer, parseId, readBody, readQuery, zBooleanFlag, zId } from "../lib/http.ts";
import { loginAttempt, RATE_RULES } from "../lib/rate-limit.ts";
import { canSeeUnit, requireFrontendLogins, requireUser } from "../services/access.ts";
import {
  changePassword,
  register,
  requestPasswordReset,
  resetPassword,
  verifyRegistration,
} from "../services/accounts.ts";
import {
  anonymousLogin,
  findEventByRegistrationModule,
  issueTokens,
  login,
  logout,
  refresh,
} from "../services/auth.ts";
import {
  assertAccessMethod,
  requestTrustedEmailLogin,
  thirdPartyLogin,
  validateTrustedEmailLogin,
} from "../services/frontend-logins.ts";

export const authRoutes = new Hono<AppEnv>();

const NEW_PASSWORD = { password: zPassword, passwordConfirmation: z.string().max(1_000) };
const matches = (v: { password: string; passwordConfirmation: string }) => v.password === v.passwordConfirmation;
const MISMATCH = { message: PASSWORD_MESSAGES.mismatch, path: ["passwordConfirmation"] };
const now = (c: { get(key: "deps"): AppEnv["Variables"]["deps"] }) => c.get("deps").now?.() ?? new Date();

authRoutes.post("/login", async (c) => {
  const body = await readBody(
    c,
    z.strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(1_000) }),
  );
  const { database, config } = c.get("deps");
  const attempt = loginAttempt(c.get("rateLimiter"), c.get("clientIp"), body.email.trim().toLowerCase());
  // A refused sign-in throws here and stays counted; only a successful one is taken back.
  const tokens = await login(database, config.secretKey, body.email, body.password, now(c));
  attempt.succeeded();
  return answer(c, tokens);
});

const zEmail = z.email("Enter a valid email address").max(254);

authRoutes.post("/register", async (c) => {
  const body = await readBody(
    c,
    z
      .strictObject({
        email: zEmail,
        firstName: z.string().trim().min(1, "This field is required").max(100),
        lastName: z.string().trim().min(1, "This field is required").max(100),
        password: zPassword,
        passwordConfirmation: z.string().max(1_000),
      })
      .refine((v) => v.password === v.passwordConfirmation, {
        message: PASSWORD_MESSAGES.mismatch,
        path: ["passwordConfirmation"],
      }),
  );
  c.get("rateLimiter").hit(`register:ip:${c.get("clientIp")}`, RATE_RULES.registerPerIp);
  const { database, config, onMailQueued } = c.get("deps");
  await register(database, { ...body, language: c.get("language"), publicUrl: config.publicUrl }, now(c));
  onMailQueued?.();
  return answer(c, { detail: c.get("t")("detail.registered") }, 201);
});

authRoutes.post("/register/verify", async (c) => {
  const body = await readBody(
    c,
    z.strictObject({ userIdB64: z.string().min(1).max(100), hash: z.string().min(1).max(200) }),
  );
  await verifyRegistration(c.get("deps").database, body.userIdB64, body.hash, now(c));
  return answer(c, { detail: c.get("t")("detail.verified") });
});

authRoutes.post("/password-reset-request", async (c) => {
  const body = await readBody(c, z.strictObject({ email: zEmail }));
  const limiter = c.get("rateLimiter");
  limiter.hit(`reset:ip:${c.get("clientIp")}`, RATE_RULES.resetPerIp);
  limiter.hit(`reset:account:${body.email.trim().toLowerCase()}`, RATE_RULES.resetPerAccount);
  const { database, config, onMailQueued } = c.get("deps");
  await requestPasswordReset(
    database,
    { email: body.email, language: c.get("language"), publicUrl: config.publicUrl },
    now(c),
  );
  onMailQueued?.();
  return answer(c, { detail: c.get("t")("detail.reset_requested") });
});

authRoutes.post("/password-reset", async (c) => {
  const body = await readBody(
    c,
    z
      .strictObject({ userIdB64: z.string().min(1).max(100), tokenB64: z.string().min(1).max(200), ...NEW_PASSWORD })
      .refine(matches, MISMATCH),
  );
  c.get("rateLimiter").hit(`reset:ip:${c.get("clientIp")}`, RATE_RULES.resetPerIp);
  await resetPassword(c.get("deps").database, body, now(c));
  return answer(c, { detail: c.get("t")("detail.password_reset") });
});

authRoutes.post("/password-change", async (c) => {
  const { database, config } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const body = await readBody(
    c,
    z.strictObject({ currentPassword: z.string().min(1).max(1_000), ...NEW_PASSWORD }).refine(matches, MISMATCH),
  );
  const sessionVersion = await changePassword(database, user, body, now(c));
  const tokens = await issueTokens(
    database,
    config.secretKey,
    { userId: user.id, frontendLoginIds: [], sessionVersion },
    now(c),
  );
  return answer(c, { detail: c.get("t")("detail.password_changed"), ...tokens });
});

authRoutes.post("/token/refresh", async (c) => {
  const body = await readBody(c, z.strictObject({ refreshToken: z.string().min(1) }));
  const { database, config } = c.get("deps");
  return answer(c, await refresh(database, config.secretKey, body.refreshToken, now(c)));
});

authRoutes.post("/logout", async (c) => {
  const body = await readBody(c, z.strictObject({ refreshToken: z.string().min(1) }));
  await logout(c.get("deps").database, body.refreshToken, now(c));
  return c.body(null, 204);
});

authRoutes.get("/me", async (c) => {
  const auth = c.get("auth");
  const { db } = c.get("deps").database;
  const user = auth?.userId ? await requireUser(db, auth) : null;
  if (!user) requireFrontendLogins(auth);
  return answer(c, {
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
  });
});

/**
 * The event a ticket-office login is for. Testing (preview) logins are for staff of the event's unit only
 * (DESIGN.md 4 "Testing mode"); real ones need a public (or closed) event.
 */
async function loginContext(c: Ctx, activeModuleId: number, isTesting: boolean) {
  const { database } = c.get("deps");
  const event = await findEventByRegistrationModule(database, activeModuleId);
  if (!isTesting) {
    if (event.status !== "public" && event.status !== "closed") throw notFound("errors.event_not_found");
    return { event, userId: null };
  }
  const user = await requireUser(database.db, c.get("auth"));
  if (!(await canSeeUnit(database.db, user, event.unitId))) throw forbidden();
  return { event, userId: user.id };
}

authRoutes.post("/anonymous-login", async (c) => {
  const body = await readBody(c, z.strictObject({ activeModuleId: zId, isTesting: zBooleanFlag.default(false) }));
  const { database, config } = c.get("deps");
  const { event, userId } = await loginContext(c, body.activeModuleId, body.isTesting);
  if (!body.isTesting) await assertAccessMethod(database, event, "anonymous");
  const result = await anonymousLogin(
    database,
    config.secretKey,
    { event, testing: body.isTesting, previous: c.get("auth"), userId },
    now(c),
  );
  return answer(c, result, 201);
});

/** A path of this site, normalised: the checked form is the one kept (shared/site-path). */
const zSitePath = z
  .string()
  .max(500)
  .transform((value, ctx) => {
    const path = sitePath(value);
    if (path === null) ctx.addIssue({ code: "custom", message: "errors.next_url_off_site" });
    return path ?? z.NEVER;
  });

authRoutes.post("/trusted-email-login", async (c) => {
  const body = await readBody(
    c,
    z.strictObject({
      activeModuleId: zId,
      isTesting: zBooleanFlag.default(false),
      email: zEmail,
      nextUrl: zSitePath.optional(),
    }),
  );
  const { database, config, onMailQueued } = c.get("deps");
  c.get("rateLimiter").hit(`trusted:account:${body.email.trim().toLowerCase()}`, RATE_RULES.resetPerAccount);
  const { event, userId } = await loginContext(c, body.activeModuleId, body.isTesting);
  await requestTrustedEmailLogin(
    database,
    {
      event,
      testing: body.isTesting,
      email: body.email,
      nextUrl: body.nextUrl,
      userId,
      language: c.get("language"),
      publicUrl: config.publicUrl,
    },
    now(c),
  );
  onMailQueued?.();
  return answer(c, { detail: c.get("t")("detail.trusted_email_sent") }, 201);
});

authRoutes.post("/trusted-email-login/validate", async (c) => {
  const body = await readBody(
    c,
    z.strictObject({
      activeModuleId: zId,
      isTesting: zBooleanFlag.default(false),
      loginPk: zId,
      validationToken: z.string().min(1).max(200),
    }),
  );
  const { database, config } = c.get("deps");
  const { event } = await loginContext(c, body.activeModuleId, body.isTesting);
  const result = await validateTrustedEmailLogin(
    database,
    config.secretKey,
    {
      event,
      testing: body.isTesting,
      loginPk: body.loginPk,
      validationToken: body.validationToken,
      previous: c.get("auth"),
    },
    now(c),
  );
  return answer(c, result);
});

authRoutes.post("/third-party-login", async (c) => {
  const body = await readBody(
    c,
    z.strictObject({
      activeModuleId: zId,
      isTesting: zBooleanFlag.default(false),
      token: z.string().min(1).max(5_000),
    }),
  );
  const { database, config } = c.get("deps");
  const { event, userId } = await loginContext(c, body.activeModuleId, body.isTesting);
  const result = await thirdPartyLogin(
    database,
    config.secretKey,
    { event, testing: body.isTesting, token: body.token, previous: c.get("auth"), userId },
    now(c),
  );
  return answer(c, result);
});

/** SPEC 7: `?id=1,2` (comma-joined), the caller's own logins only. */
export const frontendLoginRoutes = new Hono<AppEnv>();
frontendLoginRoutes.get("/", async (c) => {
  const loginIds = requireFrontendLogins(c.get("auth"));
  const query = readQuery(
    c,
    z.object({
      id: z
        .string()
        .refine((list) => list.split(",").every((id) => parseId(id) !== null), "errors.id_list_invalid")
        .optional(),
    }),
  );
  const wanted = query.id
    ? query.id
        .split(",")
        .map(Number)
        .filter((id) => loginIds.includes(id))
    : loginIds;
  const rows = wanted.length
    ? await c
        .get("deps")
        .database.db.select()
        .from(schema.frontendLogins)
        .where(inArray(schema.frontendLogins.id, wanted))
        .all()
    : [];
  return answer(
    c,
    rows.map(({ id, eventId, testing, email, username, method }) => ({
      id,
      event: eventId,
      eventId,
      testing,
      email,
      username,
      method,
    })),
  );
});
