import type { FrontendSignIn } from "@ticketing/shared/schemas/auth";
import { data } from "react-router";
import { ApiError } from "#app/lib/api.server.ts";
import { safeNextUrl } from "#app/lib/next-url.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

/** docs/design.md §4 "Ticket-office logins": the single-use link of the trusted-email mail logs the visitor in. */
export async function loader(args: Route.LoaderArgs) {
  const { loginPk, token } = args.params;
  if (!/^\d+$/.test(loginPk)) throw data(null, { status: 404 });
  const office = await TicketOffice.open(args);
  try {
    const login = await office.api.post<FrontendSignIn>("/auth/trusted-email-login/validate", {
      activeModuleId: office.event.registrationModuleId,
      loginPk: Number(loginPk),
      validationToken: token,
      isTesting: office.testing,
    });
    office.setLogin(login);
  } catch (error) {
    // docs/specification.md §8: "Could not validate email, please try again" (wrong, used or expired link).
    if (error instanceof ApiError) return office.data({ errors: error.errors }, { status: 400 });
    throw error;
  }
  const nextUrl = new URL(args.request.url).searchParams.get("nextUrl");
  throw await office.redirect(safeNextUrl(nextUrl, office.href("buy")));
}
