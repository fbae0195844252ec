import type { FrontendSignIn } from "@ticketing/shared/schemas/auth";
import { ApiError } from "#app/lib/api.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

/**
 * docs/design.md §4 "Ticket-office logins": a partner site sends its visitor here with a token it signed (HS256, the
 * event's third-party key); a valid one logs the visitor in and opens the buy page.
 */
export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  try {
    const login = await office.api.post<FrontendSignIn>("/auth/third-party-login", {
      activeModuleId: office.event.registrationModuleId,
      token: args.params.token,
      isTesting: office.testing,
    });
    office.setLogin(login);
  } catch (error) {
    if (error instanceof ApiError) return office.data({ errors: error.errors }, { status: 400 });
    throw error;
  }
  throw await office.redirect(office.href("buy"));
}
