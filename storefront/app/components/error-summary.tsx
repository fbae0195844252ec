import { useTranslation } from "react-i18next";

/**
 * "There is a problem": a refused form's messages, each field's linked to its input (following the link focuses
 * the input). It takes the focus when the refused form comes back: `autofocus` on a page the browser loads itself
 * (JavaScript off), the root's enhancement script (`data-error-summary`) on a page Turbo renders.
 */
export function ErrorSummary({
  errors,
  fields,
}: {
  errors: readonly string[];
  fields: readonly { id: string; label: string; message: string }[];
}) {
  const { t } = useTranslation();
  if (errors.length === 0 && fields.length === 0) return null;
  return (
    <div
      className="alert alert-error"
      role="alert"
      tabIndex={-1}
      // biome-ignore lint/a11y/noAutofocus: moving focus to a refused form's errors is what WCAG 3.3.1 techniques ask
      autoFocus
      data-error-summary
      aria-labelledby="error-summary-title"
    >
      <h2 id="error-summary-title">{t("forms.errorSummary")}</h2>
      <ul>
        {errors.map((error) => (
          <li key={error}>{error}</li>
        ))}
        {fields.map((field) => (
          <li key={field.id}>
            {/* The browser's own move to the field: Turbo would load the page again, losing what was typed. */}
            <a href={`#${field.id}`} data-turbo="false">
              {field.label}: {field.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
