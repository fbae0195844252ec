import { useTranslation } from "react-i18next";
import { Link } from "#app/components/link.tsx";
import { useOffice } from "#app/components/use-office.ts";
import type { Route } from "./+types/route";

export { loader } from "./route.server";

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
