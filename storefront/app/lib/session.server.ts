import type { TokenPair } from "@ticketing/shared/schemas/auth";
import { createCookieSessionStorage } from "react-router";
import { ARE_COOKIES_SECURE } from "./secure-cookies.server";
import { createSignedCookie } from "./signed-cookie.server";

interface SessionData {
  /**
   * Ticket-office login tokens, one entry per event and testing flag (docs/specification.md §3: a frontend login per
   * event).
   */
  logins: Record<string, TokenPair>;
  /**
   * The event each previewed path was signed in to (ticket-office path → event id): a draft's infos are only
   * read with its staff's testing login, so the login is found before the event is.
   */
  previews: Record<string, number>;
}

// A fixed fallback keeps `npm start` working without configuration; production sets SESSION_SECRET.
const DEVELOPMENT_SECRET = "ticket-office-development-secret";

export const sessionStorage = createCookieSessionStorage<SessionData>({
  cookie: createSignedCookie("__ticket_office", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 60 * 60 * 24 * 30, // the refresh token's lifetime
    secrets: [process.env.SESSION_SECRET || DEVELOPMENT_SECRET],
    secure: ARE_COOKIES_SECURE,
  }),
});

export type TicketOfficeSession = Awaited<ReturnType<typeof sessionStorage.getSession>>;

export const loginKey = (eventId: number, testing: boolean) => `${eventId}:${testing ? "testing" : "live"}`;
