// `/auth/*`: the back office's password accounts and sessions; the ticket office's logins are in
// ticket-office-logins.ts, under the same prefix.
import {
  AuthMe,
  Detail,
  Login,
  PasswordChange,
  PasswordChanged,
  PasswordReset,
  PasswordResetRequest,
  RefreshTokenBody,
  Registration,
  RegistrationVerification,
  TokenPair,
} from "@ticketing/shared/schemas/auth";
import { Hono } from "hono";
import { type AppEnv, now } from "../context.ts";
import { giveDeviceCookie } from "../lib/device-cookies.ts";
import { answer } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import {
  changeOwnPassword,
  registerAccount,
  resetPasswordWithLink,
  sendPasswordResetLink,
  verifyRegistration,
} from "../services/accounts/accounts.ts";
import {
  accountOf,
  describeCaller,
  logout,
  refresh,
  requesterOf,
  signInWithPassword,
} from "../services/accounts/sessions.ts";
import { ticketOfficeLoginRoutes } from "./ticket-office-logins.ts";

export const authRoutes = new Hono<AppEnv>();

authRoutes.post(
  "/login",
  route(
    {
      summary: "Sign in to the back office",
      description:
        "A success gives the browser a device cookie for the account: its later attempts are counted apart from " +
        "everyone else's, so that nobody can lock it out (docs/decisions/0033).",
      body: Login,
      answer: TokenPair,
    },
    async (c, { body }) => {
      const tokens = await signInWithPassword(c.get("deps"), requesterOf(c), body, now(c));
      giveDeviceCookie(c, accountOf(body.email), now(c));
      return answer(c, tokens);
    },
  ),
);

authRoutes.post(
  "/register",
  route(
    {
      summary: "Open a back-office account (a verification link is mailed)",
      body: Registration,
      answer: Detail,
      status: 201,
    },
    async (c, { body }) => {
      await registerAccount(c.get("deps"), requesterOf(c), body, now(c));
      return answer(c, { detail: c.get("t")("detail.registered") }, 201);
    },
  ),
);

authRoutes.post(
  "/register/verify",
  route(
    { summary: "Confirm an account's email address", body: RegistrationVerification, answer: Detail },
    async (c, { body }) => {
      await verifyRegistration(c.get("deps").database, body.userIdB64, body.hash, now(c));
      return answer(c, { detail: c.get("t")("detail.verified") });
    },
  ),
);

authRoutes.post(
  "/password-reset-request",
  route(
    {
      summary: "Mail a password-reset link (the same answer whether the account exists)",
      body: PasswordResetRequest,
      answer: Detail,
    },
    async (c, { body }) => {
      await sendPasswordResetLink(c.get("deps"), requesterOf(c), body, now(c));
      return answer(c, { detail: c.get("t")("detail.reset_requested") });
    },
  ),
);

authRoutes.post(
  "/password-reset",
  route(
    {
      summary: "Choose a new password through the mailed link",
      description: "The link proves the owner: their browser gets a device cookie for the account, as at a sign-in.",
      body: PasswordReset,
      answer: Detail,
    },
    async (c, { body }) => {
      const account = await resetPasswordWithLink(c.get("deps").database, requesterOf(c), body, now(c));
      giveDeviceCookie(c, account, now(c));
      return answer(c, { detail: c.get("t")("detail.password_reset") });
    },
  ),
);

authRoutes.post(
  "/password-change",
  route(
    {
      summary: "Change your password (every other session ends; this one gets new tokens)",
      auth: "user",
      body: PasswordChange,
      answer: PasswordChanged,
    },
    async (c, { user, body }) => {
      const tokens = await changeOwnPassword(c.get("deps"), user, body, now(c));
      return answer(c, { detail: c.get("t")("detail.password_changed"), ...tokens });
    },
  ),
);

authRoutes.post(
  "/token/refresh",
  route(
    { summary: "Rotate a refresh token into a new token pair", body: RefreshTokenBody, answer: TokenPair },
    async (c, { body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await refresh(database, config.secretKey, body.refreshToken, now(c)));
    },
  ),
);

authRoutes.post(
  "/logout",
  route(
    { summary: "End a session (revoke its refresh token)", body: RefreshTokenBody, status: 204 },
    async (c, { body }) => {
      await logout(c.get("deps").database, body.refreshToken, now(c));
      return c.body(null, 204);
    },
  ),
);

authRoutes.get(
  "/me",
  route(
    {
      summary: "Who the token speaks for: a back-office user, ticket-office logins, or both",
      auth: "optional",
      answer: AuthMe,
    },
    async (c) => answer(c, await describeCaller(c.get("deps").database.db, c.get("auth"))),
  ),
);

authRoutes.route("/", ticketOfficeLoginRoutes);
