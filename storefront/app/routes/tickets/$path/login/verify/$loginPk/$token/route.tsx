import { useTranslation } from "react-i18next";
import { Link } from "#app/components/link.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { officeHref } from "#app/lib/office-paths.ts";
import type { Route } from "./+types/route";

export { loader } from "./route.server";

export default function VerifyEmail({ loaderData: { errors } }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { base } = useOffice();
  return (
    <section className="narrow">
      <title>{t("login.verifyFailedTitle")}</title>
      <h1>{t("login.verifyFailedTitle")}</h1>
      <div className="alert alert-error" role="alert">
        {errors.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
      <p>
        <Link to={officeHref(base, "login")} className="button button-primary">
          {t("login.requestNewLink")}
        </Link>
      </p>
    </section>
  );
}
