import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation } from "react-router";
import { TicketOffice } from "../lib/ticket-office.server";
import type { Route } from "./+types/tickets.$path";

/** Ticket-office guard (SPEC 2.3): the event must exist for this path, else the 404 page. */
export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  return { event: office.event, testing: office.testing, base: office.location.base };
}

export default function TicketOfficeLayout({ loaderData: { event, testing, base } }: Route.ComponentProps) {
  const { t } = useTranslation();
  // The welcome page shows the title as its heading already.
  const isWelcome = useLocation().pathname.replace(/\/$/, "") === base;
  return (
    <>
      {testing && (
        <p className="alert alert-warning" role="note">
          {t("office.testingMode")}
        </p>
      )}
      {!isWelcome && (
        <p className="office-name">
          <Link to={base}>{event.frontendTitle}</Link>
        </p>
      )}
      <Outlet />
    </>
  );
}
