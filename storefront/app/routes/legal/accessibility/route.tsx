import { useTranslation } from "react-i18next";
import type { Route } from "./+types/route";

export { loader } from "./route.server";

// The statement follows the EU's model accessibility statement: the standard aimed at, the compliance status, what
// is not accessible, how to report a barrier, the enforcement procedure and the statement's date (issue 33).
const CHECKS = ["automatic", "keyboard", "hold", "noJavaScript", "forms", "navigation"] as const;
const LIMITATIONS = ["organiserContent", "pdfs", "payment", "backOffice", "testing"] as const;

export default function AccessibilityStatement({ loaderData: { supportEmail } }: Route.ComponentProps) {
  const { t } = useTranslation("storefront", { keyPrefix: "legal.accessibility" });
  const mailto = `mailto:${supportEmail}?subject=${encodeURIComponent(t("feedback.subject"))}`;
  return (
    <article className="prose">
      <title>{t("title")}</title>
      <h1>{t("title")}</h1>
      <p>{t("intro")}</p>

      <h2>{t("standard.heading")}</h2>
      <p>{t("standard.body")}</p>

      <h2>{t("status.heading")}</h2>
      <p>{t("status.body")}</p>
      <p>{t("status.checks")}</p>
      <ul>
        {CHECKS.map((check) => (
          <li key={check}>{t(`status.${check}`)}</li>
        ))}
      </ul>

      <h2>{t("limitations.heading")}</h2>
      <ul>
        {LIMITATIONS.map((limitation) => (
          <li key={limitation}>{t(`limitations.${limitation}`)}</li>
        ))}
      </ul>

      <h2>{t("feedback.heading")}</h2>
      <p>{t("feedback.body")}</p>
      <p>
        {t("feedback.email")} <a href={mailto}>{supportEmail}</a>
      </p>
      <p>{t("feedback.event")}</p>

      <h2>{t("enforcement.heading")}</h2>
      <p>{t("enforcement.body")}</p>

      <h2>{t("preparation.heading")}</h2>
      <p>{t("preparation.body")}</p>
    </article>
  );
}
