import type { FrontendSignIn } from "@ticketing/shared/schemas/auth";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useOffice } from "#app/components/use-office.ts";
import { ApiError } from "#app/lib/api.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

/**
 * DESIGN 4 "Ticket-office logins": a partner site sends its visitor here with a token it signed (HS256, the
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

export default function ThirdPartyLogin({ loaderData: { errors } }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { base } = useOffice();
  return (
    <section className="narrow">
      <title>{t("login.thirdPartyFailedTitle")}</title>
      <h1>{t("login.thirdPartyFailedTitle")}</h1>
      <div className="alert alert-error" role="alert">
        {errors.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
      <p>{t("login.thirdPartyFailedText")}</p>
      <p>
        <Link to={base}>{t("completion.backToEvent")}</Link>
      </p>
    </section>
  );
}
