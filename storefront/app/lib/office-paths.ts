// Ticket-office URLs. docs/specification.md §2.3: every link and redirect keeps the `preview` segment of testing mode.
import { ticketOfficePath } from "@ticketing/shared/ticket-office";

export interface OfficeLocation {
  /** The event's ticket-office path (route parameter `path`). */
  path: string;
  /** Testing (preview) mode: the URL has the `preview` segment. */
  testing: boolean;
  /** `/tickets/demo` or `/tickets/preview/demo`; every page of the office lives under it. */
  base: string;
}

export const officeBase = (path: string, testing: boolean) => ticketOfficePath(path, testing);

/** Reads the office location from a request path and the matched `path` parameter. */
export function locateOffice(pathname: string, path: string): OfficeLocation {
  const preview = officeBase(path, true);
  const testing = pathname === preview || pathname.startsWith(`${preview}/`);
  return { path, testing, base: officeBase(path, testing) };
}

export type OfficeStep =
  | ""
  | "login"
  | "buy"
  | "checkout/forms"
  | "checkout/billing-information"
  | "checkout/payment-method"
  | `payment/pointofsale/${number}`
  | "completion";

export const officeHref = (base: string, step: OfficeStep) => (step ? `${base}/${step}` : base);
