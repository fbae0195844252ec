import { useTranslation } from "react-i18next";
import { Link } from "#app/components/link.tsx";
import { formatDateRange } from "#app/lib/format.ts";
import { officeBase } from "#app/lib/office-paths.ts";
import type { Route } from "./+types/route";

export { loader } from "./route.server";

export default function Home({ loaderData: { events } }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <title>{t("home.title")}</title>
      <h1>{t("home.title")}</h1>
      {events.length === 0 ? (
        <p>{t("home.empty")}</p>
      ) : (
        <ul className="card-list">
          {events.map((event) => (
            <li key={event.id} className="card">
              <h2>
                <Link to={officeBase(event.frontendPath, false)}>{event.frontendTitle}</Link>
              </h2>
              <p className="muted">{formatDateRange(event.startDate, event.endDate, i18n.language)}</p>
              {event.locationText && <p className="muted">{event.locationText}</p>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
