// The ticket office of an event: where it lives and when it sells. Pure, so the API's services, its mails and
// the storefront share it.
import type { AccessMethod, EventStatus } from "./constants.ts";

/** Where every ticket office lives, and under it every preview (testing mode). */
export const TICKET_OFFICES_PATH = "/tickets";
export const PREVIEWS_PATH = `${TICKET_OFFICES_PATH}/preview`;

/**
 * `/tickets/demo/buy`, or `/tickets/preview/demo/buy` in testing mode (docs/specification.md §2.3: every link keeps the
 * preview segment). The event's path is URL-encoded; `rest` is a path of the office's own (`login/verify/3/…`).
 */
export function ticketOfficePath(frontendPath: string, testing: boolean, rest = ""): string {
  const base = `${testing ? PREVIEWS_PATH : TICKET_OFFICES_PATH}/${encodeURIComponent(frontendPath)}`;
  return rest ? `${base}/${rest}` : base;
}

/** The same page as a full address, for mails and payment providers: `publicUrl` is the product's own. */
export const ticketOfficeUrl = (publicUrl: string, event: { frontendPath: string }, testing: boolean, rest = "") =>
  `${publicUrl}${ticketOfficePath(event.frontendPath, testing, rest)}`;

/**
 * Whether a ticket-office login proved its email address: a trusted email's link was followed, or a third party
 * signed it. A waiting list reaches its buyers by mail, so joining needs one (docs/decisions/0038).
 */
export const provesEmail = (login: { method: AccessMethod; email: string | null; validatedAt: string | null }) =>
  login.email !== null &&
  (login.method === "third_party" || (login.method === "trusted_email" && login.validatedAt !== null));

export interface EventWindowsInput {
  status: EventStatus;
  registrationsStartDate: string | null;
  registrationsEndDate: string | null;
  paymentsStartDate: string | null;
  paymentsEndDate: string | null;
}

const inWindow = (now: string, start: string | null, end: string | null) =>
  (!start || start <= now) && (!end || now <= end);

/** docs/specification.md §4: basket actions need registrations allowed; starting payment needs payments allowed. */
export function eventWindows(event: EventWindowsInput, now: Date) {
  const iso = now.toISOString();
  const isPublic = event.status === "public";
  const areRegistrationsAllowed = isPublic && inWindow(iso, event.registrationsStartDate, event.registrationsEndDate);
  const arePaymentsAllowed = isPublic && inWindow(iso, event.paymentsStartDate, event.paymentsEndDate);
  return { areRegistrationsAllowed, isBasketItemModificationAllowed: areRegistrationsAllowed, arePaymentsAllowed };
}
