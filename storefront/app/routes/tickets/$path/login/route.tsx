import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { ErrorMessages } from "#app/components/error-messages.tsx";
import type { Route } from "./+types/route";
import type { ActionResult } from "./route.server";

export { action, loader } from "./route.server";

function StaffLogin({ nextUrl }: { nextUrl: string }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="stack">
      <p>{t("login.staffText")}</p>
      <input type="hidden" name="nextUrl" value={nextUrl} />
      <div className="field">
        <label htmlFor="staff-email">{t("login.staffEmail")}</label>
        <input id="staff-email" name="email" type="email" autoComplete="username" required />
      </div>
      <div className="field">
        <label htmlFor="staff-password">{t("login.staffPassword")}</label>
        <input id="staff-password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <button type="submit" className="button button-primary">
        {t("login.staffSubmit")}
      </button>
    </Form>
  );
}

function TrustedEmailLogin({ nextUrl, result }: { nextUrl: string; result: ActionResult | undefined }) {
  const { t } = useTranslation();
  const error = result?.emailError;
  return (
    <Form method="post" className="card stack" noValidate aria-labelledby="email-login-title">
      <h2 id="email-login-title">{t("login.emailTitle")}</h2>
      <p>{t("login.emailText")}</p>
      <input type="hidden" name="nextUrl" value={nextUrl} />
      <div className={error ? "field field-invalid" : "field"}>
        <label htmlFor="login-email">{t("login.email")}</label>
        {error && (
          <p className="field-error" id="login-email-error">
            {error}
          </p>
        )}
        <input
          id="login-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={result?.email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "login-email-error" : undefined}
        />
      </div>
      <button type="submit" name="intent" value="trustedEmail" className="button">
        {t("login.emailSubmit")}
      </button>
    </Form>
  );
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { nextUrl, isPreview, accessMethods, isEmailSent } = loaderData;
  const { t } = useTranslation();
  if (isEmailSent) {
    return (
      <section className="narrow">
        <title>{t("login.emailSentTitle")}</title>
        <h1>{t("login.emailSentTitle")}</h1>
        <p className="alert alert-success" role="status">
          {t("login.emailSentText")}
        </p>
      </section>
    );
  }
  const title = isPreview ? t("login.staffTitle") : t("login.title");
  const offersAnonymous = accessMethods.includes("anonymous");
  const offersEmail = accessMethods.includes("trusted_email");
  return (
    <section className="narrow">
      <title>{title}</title>
      <h1>{title}</h1>
      <ErrorMessages errors={actionData?.errors} />
      {isPreview ? (
        <StaffLogin nextUrl={nextUrl} />
      ) : (
        <>
          {offersAnonymous && (
            <Form method="post" className="stack">
              <p>{t("login.anonymousText")}</p>
              <input type="hidden" name="nextUrl" value={nextUrl} />
              <button type="submit" name="intent" value="anonymous" className="button button-primary">
                {t("login.anonymous")}
              </button>
            </Form>
          )}
          {offersEmail && <TrustedEmailLogin nextUrl={nextUrl} result={actionData} />}
          {accessMethods.includes("third_party") && <p className="muted">{t("login.thirdPartyText")}</p>}
          {!offersAnonymous && !offersEmail && !accessMethods.includes("third_party") && (
            <p className="alert alert-info" role="status">
              {t("login.unavailable")}
            </p>
          )}
        </>
      )}
    </section>
  );
}
