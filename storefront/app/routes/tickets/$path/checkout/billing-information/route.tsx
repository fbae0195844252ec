import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { ErrorSummary } from "#app/components/error-summary.tsx";
import type { Route } from "./+types/route";
import { FIELDS } from "./fields";

export { action, loader } from "./route.server";

const fieldId = (name: string) => `billing-${name}`;

export default function BillingInformationStep({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const values = actionData?.values ?? loaderData.values ?? {};
  const fieldErrors = actionData?.fieldErrors ?? {};
  const errorFields = FIELDS.flatMap(({ name }) => {
    const message = fieldErrors[name];
    return message ? [{ id: fieldId(name), label: t(`checkout.billing.fields.${name}`), message }] : [];
  });

  return (
    <section className="narrow">
      <title>{t("checkout.billing.title")}</title>
      <h1>{t("checkout.billing.title")}</h1>
      <ErrorSummary errors={actionData?.errors ?? []} fields={errorFields} />
      <Form method="post" noValidate className="stack">
        {FIELDS.map(({ name, autoComplete, type }) => {
          const error = fieldErrors[name];
          return (
            <div key={name} className={error ? "field field-invalid" : "field"}>
              <label htmlFor={fieldId(name)}>{t(`checkout.billing.fields.${name}`)}</label>
              {error && (
                <p className="field-error" id={`${fieldId(name)}-error`}>
                  {error}
                </p>
              )}
              <input
                id={fieldId(name)}
                name={name}
                type={type}
                autoComplete={autoComplete}
                defaultValue={values[name] ?? ""}
                required
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${fieldId(name)}-error` : undefined}
              />
            </div>
          );
        })}
        <button type="submit" className="button button-primary">
          {t("checkout.billing.submit")}
        </button>
      </Form>
    </section>
  );
}
