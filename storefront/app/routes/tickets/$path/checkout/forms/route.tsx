import { MAJORITY_AGE } from "@ticketing/shared/constants";
import type { ExtraInfo } from "@ticketing/shared/schemas/ticket-office";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { ErrorSummary } from "#app/components/error-summary.tsx";
import { answerId, answerName, countryOptions } from "#app/lib/extra-info-form.ts";
import type { Route } from "./+types/route";

export { action, loader } from "./route.server";

interface FieldProps {
  info: ExtraInfo;
  itemId: number;
  value: string;
  error: string | undefined;
}

function FieldInput({ info, itemId, value, error, describedBy }: FieldProps & { describedBy: string | undefined }) {
  const { t, i18n } = useTranslation();
  const common = {
    id: answerId(itemId, info.id),
    name: answerName(itemId, info.id),
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
    "aria-required": info.isRequired || undefined,
  };
  switch (info.type) {
    case "choice":
      return (
        <select {...common} defaultValue={value}>
          <option value="">{t("checkout.forms.choose")}</option>
          {/* The buyer reads the label in their language; the value sent is the choice itself (docs/decisions/0043). */}
          {(info.choices ?? []).map((choice, index) => (
            <option key={choice} value={choice}>
              {info.choiceLabels?.[index] || choice}
            </option>
          ))}
        </select>
      );
    case "country":
      return (
        <select {...common} defaultValue={value} autoComplete="country">
          <option value="">{t("checkout.forms.choose")}</option>
          {countryOptions(i18n.language).map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
      );
    case "date":
    case "dateMajor":
      return <input {...common} type="date" defaultValue={value} />;
    case "datetime":
      return <input {...common} type="datetime-local" defaultValue={value} />;
    case "email":
      return <input {...common} type="email" autoComplete="email" defaultValue={value} />;
    case "numerical":
      return <input {...common} type="text" inputMode="decimal" defaultValue={value} />;
    case "phone":
      return <input {...common} type="tel" autoComplete="tel" defaultValue={value} />;
    case "textarea":
      return <textarea {...common} rows={4} defaultValue={value} />;
    case "boolean":
      return <input {...common} type="checkbox" value="true" defaultChecked={value === "true"} />;
    default:
      return <input {...common} type="text" defaultValue={value} />;
  }
}

/** What the buyer reads as a field's label: its question, the internal name only for a field without one. */
const fieldLabel = (info: ExtraInfo) => info.text.trim() || info.name;

function Field(props: FieldProps) {
  const { t } = useTranslation();
  const { info, itemId, error } = props;
  const id = answerId(itemId, info.id);
  const hints = [
    info.helpText ? `${id}-help` : null,
    info.type === "dateMajor" ? `${id}-major` : null,
    error ? `${id}-error` : null,
  ].filter(Boolean);
  const label = (
    <>
      {fieldLabel(info)}
      {info.isRequired ? (
        <span className="muted"> ({t("checkout.forms.required")})</span>
      ) : (
        <span className="muted"> ({t("checkout.forms.optional")})</span>
      )}
    </>
  );
  const input = <FieldInput {...props} describedBy={hints.length ? hints.join(" ") : undefined} />;
  return (
    <div className={`field${error ? " field-invalid" : ""}${info.type === "boolean" ? " field-checkbox" : ""}`}>
      {info.type === "boolean" ? (
        <label className="checkbox" htmlFor={id}>
          {input}
          <span>{label}</span>
        </label>
      ) : (
        <label htmlFor={id}>{label}</label>
      )}
      {info.helpText && (
        <p className="muted small" id={`${id}-help`}>
          {info.helpText}
        </p>
      )}
      {info.type === "dateMajor" && (
        <p className="muted small" id={`${id}-major`}>
          {t("checkout.forms.major", { age: info.major?.age ?? MAJORITY_AGE })}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      {info.type !== "boolean" && input}
    </div>
  );
}

export default function FormsStep({ loaderData, actionData }: Route.ComponentProps) {
  const { forms } = loaderData;
  const { t } = useTranslation();
  const values: Record<string, string> = actionData?.values ?? loaderData.values;
  const fieldErrors: Record<string, string> = actionData?.fieldErrors ?? {};
  const errors = actionData?.errors ?? [];
  // The summary lists the errors in page order, each linked to its input.
  const errorLinks = forms.flatMap((item) =>
    item.groups.flatMap((group) =>
      group.extraInfos.flatMap((info) => {
        const message = fieldErrors[answerName(item.itemId, info.id)];
        return message
          ? [{ id: answerId(item.itemId, info.id), label: `${item.title} – ${fieldLabel(info)}`, message }]
          : [];
      }),
    ),
  );
  return (
    <section className="narrow">
      <title>{t("checkout.forms.title")}</title>
      <h1>{t("checkout.forms.title")}</h1>
      <p>{t("checkout.forms.intro")}</p>
      <ErrorSummary errors={errors} fields={errorLinks} />
      <Form method="post" noValidate className="stack">
        {forms.map((item, index) => (
          <fieldset key={item.itemId} className="item-forms">
            <legend>{t("checkout.forms.ticket", { number: index + 1, title: item.title })}</legend>
            {item.groups.map((group) => (
              <fieldset key={group.id} className={group.isInline ? "form-group form-group-inline" : "form-group"}>
                <legend>{group.name}</legend>
                {group.helpText && <p className="muted small">{group.helpText}</p>}
                {group.extraInfos.map((info) => (
                  <Field
                    key={info.id}
                    info={info}
                    itemId={item.itemId}
                    value={values[answerName(item.itemId, info.id)] ?? ""}
                    error={fieldErrors[answerName(item.itemId, info.id)]}
                  />
                ))}
              </fieldset>
            ))}
          </fieldset>
        ))}
        <button type="submit" className="button button-primary">
          {t("checkout.forms.submit")}
        </button>
      </Form>
    </section>
  );
}
