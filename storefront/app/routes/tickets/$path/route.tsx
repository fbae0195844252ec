import { useTranslation } from "react-i18next";
import { Link } from "#app/components/link.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { formatDateRange } from "#app/lib/format.ts";
import { officeHref } from "#app/lib/office-paths.ts";

export default function Welcome() {
  const { t, i18n } = useTranslation();
  const { event, testing, base } = useOffice();
  const isOpen = testing || event.areRegistrationsAllowed;
  return (
    <article className="prose">
      <title>{event.frontendTitle}</title>
      <h1>{event.frontendTitle}</h1>
      <dl className="facts">
        <dt>{t("welcome.when")}</dt>
        <dd>{formatDateRange(event.startDate, event.endDate, i18n.language)}</dd>
        {event.locationText && (
          <>
            <dt>{t("welcome.where")}</dt>
            <dd>{event.locationText}</dd>
          </>
        )}
      </dl>
      {event.welcomeText?.split(/\n\s*\n/).map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {!event.areRegistrationsAllowed && (
        <p className="alert alert-info" role="status">
          {t("welcome.registrationsClosed")}
        </p>
      )}
      {isOpen && (
        <p>
          <Link to={officeHref(base, "buy")} className="button button-primary">
            {t("welcome.buyTickets")}
          </Link>
        </p>
      )}
    </article>
  );
}
