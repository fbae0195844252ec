import { useTranslation } from "react-i18next";

/**
 * "There is a problem": a refused form's messages, each field's linked to its input. With JavaScript the root's
 * enhancement script moves focus to it (`data-error-summary`) when a refused form comes back.
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
            <a href={`#${field.id}`}>
              {field.label}: {field.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
