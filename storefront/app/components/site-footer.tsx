import { LANGUAGES } from "@ticketing/shared/constants";
import { useTranslation } from "react-i18next";
import { Form, useLocation } from "react-router";
import { Link } from "#app/components/link.tsx";

const LEGAL_DOCUMENTS = [
  ["imprint", "footer.imprint"],
  ["privacy-policy", "footer.privacyPolicy"],
  ["terms-of-service", "footer.termsOfService"],
  ["accessibility", "footer.accessibility"],
] as const;

export function SiteFooter() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  return (
    <footer className="site-footer">
      <nav aria-label={t("footer.legal")}>
        <ul className="inline-list">
          {LEGAL_DOCUMENTS.map(([document, label]) => (
            <li key={document}>
              <Link to={`/legal/${document}`}>{t(label)}</Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* A plain post: the language changes with a full reload, with or without JavaScript
          (docs/specification.md §4). */}
      <Form method="post" action="/language" reloadDocument data-turbo="false" className="language-switch">
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
        <fieldset className="inline-list">
          <legend>{t("footer.language")}</legend>
          {LANGUAGES.map((language) => (
            <button
              key={language}
              type="submit"
              name="lng"
              value={language}
              lang={language}
              aria-pressed={i18n.language === language}
              className="link-button"
            >
              {t(`language.${language}`)}
            </button>
          ))}
        </fieldset>
      </Form>
    </footer>
  );
}
