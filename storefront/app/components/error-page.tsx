import { useTranslation } from "react-i18next";
import { isRouteErrorResponse } from "react-router";
import { Link } from "#app/components/link.tsx";
import { errorReasonOf } from "../lib/error-reasons";

/**
 * The page of a refused or failed request: by its status (docs/specification.md §2.5's error pages), or by the reason
 * its data gives when the status alone would mislead ("Page not found" for a buy page whose registrations are closed).
 */
export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // On the server, React Router's handleError (entry.server.tsx) has logged it already.
  if (!isRouteErrorResponse(error) && typeof document !== "undefined") console.error(error);
  const reason = isRouteErrorResponse(error) ? errorReasonOf(error.data) : null;
  if (reason?.reason === "registrationsClosed") {
    const title = t("welcome.registrationsClosed");
    return (
      <section className="narrow">
        <title>{title}</title>
        <h1>{title}</h1>
        <p>{t("buy.closed.text")}</p>
        <p>
          <Link to={reason.eventHref}>{t("buy.closed.backToEvent")}</Link>
        </p>
      </section>
    );
  }
  const title =
    reason?.reason === "unreadableForm"
      ? t("errors.unreadableForm.title")
      : status === 404
        ? t("errors.notFound")
        : status === 403
          ? t("errors.forbidden")
          : status >= 500
            ? t("errors.internal")
            : t("errors.code", { errorCode: status });
  return (
    <>
      <title>{title}</title>
      <h1>{title}</h1>
      {reason?.reason === "unreadableForm" && <p>{t("errors.unreadableForm.text")}</p>}
      {status === 403 && <p>{t("errors.forbiddenText")}</p>}
      <p>
        <Link to="/">{t("errors.backHome")}</Link>
      </p>
    </>
  );
}
