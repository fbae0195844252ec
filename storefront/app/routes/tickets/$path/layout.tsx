import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/layout";

export { loader } from "./layout.server";

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
      {event?.cancellation && (
        // docs/decisions/0047: every page of a cancelled event's office says so, with the organiser's message.
        <div className="alert alert-error office-cancelled" role="note">
          <p>
            <strong>{t("office.cancelled")}</strong>
          </p>
          {event.cancellation.message.split(/\n{2,}/).map((paragraph, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the message's paragraphs, fixed for the page
            <p key={index} className="office-cancelled-message">
              {paragraph}
            </p>
          ))}
        </div>
      )}
      {event && !isWelcome && (
        <p className="office-name">
          <Link to={base}>{event.frontendTitle}</Link>
        </p>
      )}
      <Outlet />
    </>
  );
}
