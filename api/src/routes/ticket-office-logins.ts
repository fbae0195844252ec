// `/auth/*` for the ticket office (docs/design.md §4 "Ticket-office logins"): anonymous, by a trusted email's link, or
// by a third party's signed token; each adds a login to the caller's token. `is_testing` logins (previews) are
// for staff of the event's unit, signed in to the back office.
import {
  AnonymousLogin,
  AnonymousLoginCreate,
  Detail,
  FrontendSignIn,
  ThirdPartyLoginCreate,
  TrustedEmailLoginCreate,
  TrustedEmailLoginValidation,
} from "@ticketing/shared/schemas/auth";
import { Hono } from "hono";
import { type AppEnv, now } from "../context.ts";
import { answer } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { requesterOf } from "../services/accounts/sessions.ts";
import {
  sendTrustedEmailLink,
  signInAnonymously,
  signInWithThirdParty,
  signInWithTrustedEmail,
} from "../services/buyers/logins.ts";

export const ticketOfficeLoginRoutes = new Hono<AppEnv>();

ticketOfficeLoginRoutes.post(
  "/anonymous-login",
  route(
    {
      summary: "Sign in to a ticket office anonymously",
      auth: "optional",
      body: AnonymousLoginCreate,
      answer: AnonymousLogin,
      status: 201,
    },
    async (c, { body }) => answer(c, await signInAnonymously(c.get("deps"), c.get("auth"), body, now(c)), 201),
  ),
);

ticketOfficeLoginRoutes.post(
  "/trusted-email-login",
  route(
    {
      summary: "Mail a single-use ticket-office login link",
      auth: "optional",
      body: TrustedEmailLoginCreate,
      answer: Detail,
      status: 201,
    },
    async (c, { body }) => {
      await sendTrustedEmailLink(c.get("deps"), c.get("auth"), requesterOf(c), body, now(c));
      return answer(c, { detail: c.get("t")("detail.trusted_email_sent") }, 201);
    },
  ),
);

ticketOfficeLoginRoutes.post(
  "/trusted-email-login/validate",
  route(
    {
      summary: "Sign in to a ticket office with a mailed link",
      auth: "optional",
      body: TrustedEmailLoginValidation,
      answer: FrontendSignIn,
    },
    async (c, { body }) => answer(c, await signInWithTrustedEmail(c.get("deps"), c.get("auth"), body, now(c))),
  ),
);

ticketOfficeLoginRoutes.post(
  "/third-party-login",
  route(
    {
      summary: "Sign in to a ticket office with a third party's signed token",
      auth: "optional",
      body: ThirdPartyLoginCreate,
      answer: FrontendSignIn,
    },
    async (c, { body }) => answer(c, await signInWithThirdParty(c.get("deps"), c.get("auth"), body, now(c))),
  ),
);
