import { eq, inArray, schema } from "@ticketing/db";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context.ts";
import { conflict, forbidden, notFound } from "../lib/errors.ts";
import { answer, readBody, readQuery, zBooleanFlag, zId } from "../lib/http.ts";
import { canSeeUnit, requireFrontendLogins, requireUser } from "../services/access.ts";
import { anonymousLogin, findEventByRegistrationModule, login, logout, refresh } from "../services/auth.ts";

export const authRoutes = new Hono<AppEnv>();
const now = (c: { get(key: "deps"): AppEnv["Variables"]["deps"] }) => c.get("deps").now?.() ?? new Date();

authRoutes.post("/login", async (c) => {
  const body = await readBody(c, z.strictObject({ email: z.string().min(1), password: z.string().min(1) }));
  const { database, config } = c.get("deps");
  return answer(c, await login(database, config.secretKey, body.email, body.password, now(c)));
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

authRoutes.post("/anonymous-login", async (c) => {
  const body = await readBody(c, z.strictObject({ activeModuleId: zId, isTesting: zBooleanFlag.default(false) }));
  const { database, config } = c.get("deps");
  const event = await findEventByRegistrationModule(database, body.activeModuleId);
  const auth = c.get("auth");
  let userId: number | null = null;
  if (body.isTesting) {
    // Testing (preview) logins are for staff of the event's unit only (DESIGN.md 4 "Testing mode").
    const user = await requireUser(database.db, auth);
    if (!(await canSeeUnit(database.db, user, event.unitId))) throw forbidden();
    userId = user.id;
  } else {
    if (event.status !== "public") throw notFound("errors.event_not_found");
    const methods = await database.db
      .select()
      .from(schema.eventAccessMethods)
      .where(eq(schema.eventAccessMethods.eventId, event.id))
      .all();
    if (!methods.some((m) => m.method === "anonymous")) throw conflict("errors.access_method_disabled");
  }
  const result = await anonymousLogin(
    database,
    config.secretKey,
    { event, testing: body.isTesting, previous: auth, userId },
    now(c),
  );
  return answer(c, result, 201);
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
        .regex(/^\d+(,\d+)*$/, "id must be a comma-separated list of ids")
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
