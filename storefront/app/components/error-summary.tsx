import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";

/**
 * "There is a problem": a refused form's messages, each field's linked to its input. With JavaScript it takes
 * focus when `result` (the action's answer) changes, as a full page load would put the reader at its top.
 */
export function ErrorSummary({
  errors,
  fields,
  result,
}: {
  errors: readonly string[];
  fields: readonly { id: string; label: string; message: string }[];
  result: unknown;
}) {
  const { t } = useTranslation();
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result) summary.current?.focus();
  }, [result]);
  if (errors.length === 0 && fields.length === 0) return null;
  return (
    <div className="alert alert-error" role="alert" tabIndex={-1} ref={summary} aria-labelledby="error-summary-title">
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
