import type { BillingInformation } from "@ticketing/shared/schemas/ticket-office";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { ErrorSummary } from "#app/components/error-summary.tsx";
import { getFixedT } from "#app/i18n.server.ts";
import { ApiError } from "#app/lib/api.server.ts";
import { requireWizardBasket } from "#app/lib/baskets.server.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

const FIELDS = [
  { name: "firstName", autoComplete: "given-name", type: "text" },
  { name: "lastName", autoComplete: "family-name", type: "text" },
  { name: "email", autoComplete: "email", type: "email" },
  { name: "address", autoComplete: "street-address", type: "text" },
  { name: "postalCode", autoComplete: "postal-code", type: "text" },
  { name: "city", autoComplete: "address-level2", type: "text" },
  { name: "country", autoComplete: "country-name", type: "text" },
] as const satisfies readonly { name: keyof BillingInformation; autoComplete: string; type: string }[];

type FieldName = (typeof FIELDS)[number]["name"];
const fieldId = (name: string) => `billing-${name}`;
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  const { basket } = await requireWizardBasket(office, "billing-information");
  return office.data({ values: basket.billingInformation as Partial<BillingInformation> | null });
}

export async function action(args: Route.ActionArgs) {
  const form = await readPostedForm(args.request);
  const office = await TicketOffice.open(args);
  const { api, basket } = await requireWizardBasket(office, "billing-information");
  const values = Object.fromEntries(FIELDS.map(({ name }) => [name, String(form.get(name) ?? "").trim()])) as Record<
    FieldName,
    string
  >;

  const t = getFixedT(office.language);
  const fieldErrors: Partial<Record<FieldName, string>> = {};
  for (const { name } of FIELDS) if (!values[name]) fieldErrors[name] = t("forms.errors.required");
  if (values.email && !EMAIL.test(values.email)) fieldErrors.email = t("forms.errors.email");
  if (Object.keys(fieldErrors).length > 0) return office.data({ values, errors: [], fieldErrors }, { status: 400 });

  try {
    await api.post("/frontend/billing-information", { basketId: basket.id, ...values });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return office.data(
      { values, errors: error.errors, fieldErrors: error.fieldErrors as Partial<Record<FieldName, string>> },
      { status: error.status },
    );
  }
  return office.redirect(office.href("checkout/payment-method"));
}

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
