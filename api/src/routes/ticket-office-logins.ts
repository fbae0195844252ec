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
import { type AppEnv, type Ctx, now } from "../context.ts";
import { giveDeviceCookie, presentedDevice, TICKET_OFFICE_DEVICE } from "../lib/device-cookies.ts";
import { answer } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { requesterOf } from "../services/accounts/sessions.ts";
import { type GuestClient, signInAnonymously } from "../services/buyers/guest-logins.ts";
import { sendTrustedEmailLink, signInWithThirdParty, signInWithTrustedEmail } from "../services/buyers/logins.ts";

export const ticketOfficeLoginRoutes = new Hono<AppEnv>();

/** The guest's address (X-Forwarded-For believed from TRUSTED_PROXIES only) and browser, as guest sign-ins count them. */
const guestOf = (c: Ctx): GuestClient => ({
  limiter: c.get("rateLimiter"),
  ip: c.get("clientIp"),
  device: presentedDevice(c, TICKET_OFFICE_DEVICE, now(c)),
  giveDevice: () => giveDeviceCookie(c, TICKET_OFFICE_DEVICE, now(c)),
});

ticketOfficeLoginRoutes.post(
  "/anonymous-login",
  route(
    {
      summary: "Sign in to a ticket office anonymously",
      description:
        "A caller whose token holds a guest login to the event gets it again. New guest logins are limited per " +
        "client address and per browser (its device cookie, given at its first guest sign-in): 429 past either.",
      auth: "optional",
      body: AnonymousLoginCreate,
      answer: AnonymousLogin,
      status: 201,
    },
    async (c, { body }) =>
      answer(c, await signInAnonymously(c.get("deps"), c.get("auth"), guestOf(c), body, now(c)), 201),
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
