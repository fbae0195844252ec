// An event's waiting list through the API (issue 31, docs/decisions/0038): the buyer's own entries (their login),
// and an offer mailed to them (its code alone: the mail's link may be opened in any browser, signed in or not).

import type { FrontendLogin, FrontendSignIn } from "@ticketing/shared/schemas/auth";
import type {
  OpenedWaitingListOffer,
  OwnWaitingListEntry,
  WaitingListOffer,
} from "@ticketing/shared/schemas/waiting-list";
import type { ApiClient } from "./api.server";
import type { TicketOffice } from "./ticket-office.server";

/** The buyer's entries on the event (in this mode), in the order they joined. */
export const listOwnEntries = (office: TicketOffice, api: ApiClient) =>
  api.get<OwnWaitingListEntry[]>("/frontend/waiting-list", { eventId: office.event.id, testing: office.testing });

/**
 * Whether the buyer's login to this event proved an email address (a trusted email's link, a third party's token),
 * which joining needs: the list writes to it. A preview's staff login is left for the API to judge.
 */
export async function hasProvedEmail(office: TicketOffice, api: ApiClient) {
  if (office.testing) return true;
  const logins = await api.get<FrontendLogin[]>("/frontend-logins");
  return logins.some(
    (login) => login.eventId === office.event.id && login.testing === office.testing && login.emailProved,
  );
}

export const joinList = (office: TicketOffice, api: ApiClient, nodeId: number, quantity: number) =>
  api.post<OwnWaitingListEntry>("/frontend/waiting-list", {
    eventId: office.event.id,
    nodeId,
    quantity,
    testing: office.testing,
  });

export const leaveEntry = (api: ApiClient, entryId: number) => api.delete(`/frontend/waiting-list/${entryId}`);

/** Asks for a sign-in link by email that comes back to `nextUrl` (the same call as the login page's). */
export const sendLoginLink = (office: TicketOffice, email: string, nextUrl: string) =>
  office.api.post("/auth/trusted-email-login", {
    activeModuleId: office.event.registrationModuleId,
    isTesting: false,
    email,
    nextUrl,
  });

// An offer is read, opened and declined with its code only: no login goes with these calls.
const offerPath = (entryId: number) => `/frontend/waiting-list/offers/${entryId}`;

export const readOffer = (office: TicketOffice, entryId: number, code: string) =>
  office.api.get<WaitingListOffer>(offerPath(entryId), { code });

/**
 * Opens the offer into its basket and signs the buyer in as the entry's login, as a trusted email's link does: the
 * mailed code proved the address. Opening again answers the same basket.
 */
export async function openOffer(office: TicketOffice, entryId: number, code: string) {
  const opened = await office.api.post<OpenedWaitingListOffer>(`${offerPath(entryId)}/open`, { code });
  const signIn: FrontendSignIn = opened;
  office.setLogin(signIn);
  return opened;
}

export const declineOffer = (office: TicketOffice, entryId: number, code: string) =>
  office.api.post(`${offerPath(entryId)}/decline`, { code });
