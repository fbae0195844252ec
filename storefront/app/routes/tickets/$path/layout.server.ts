import { PreviewSignIn, TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/layout";

/**
 * Ticket-office guard (docs/specification.md §2.3): the event must exist for this path, else the 404 page. A preview
 * not signed in yet knows no event: every page but the staff sign-in goes there, and nothing of the event is shown.
 */
export async function loader(args: Route.LoaderArgs) {
  const live = await TicketOffice.liveEvent(args);
  if (live) return { event: live.event, testing: false, base: live.location.base };
  const office = await TicketOffice.enter(args);
  const { testing, base } = office.location;
  if (office instanceof PreviewSignIn) {
    if (new URL(args.request.url).pathname !== office.href("login")) throw await office.redirect(office.loginUrl());
    return { event: null, testing, base };
  }
  return { event: office.event, testing, base };
}
