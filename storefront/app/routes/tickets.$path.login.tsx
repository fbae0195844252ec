import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { ErrorMessages } from "../components/error-messages";
import { useSubmitOnce } from "../components/use-submit-once";
import { ApiError, createApiClient } from "../lib/api.server";
import type { AnonymousLogin, TokenPair } from "../lib/api-types";
import { safeNextUrl } from "../lib/next-url";
import { TicketOffice } from "../lib/ticket-office.server";
import type { Route } from "./+types/tickets.$path.login";

const nextUrlOf = (office: TicketOffice, value: FormDataEntryValue | null) => safeNextUrl(value, office.href("buy"));

export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  const nextUrl = nextUrlOf(office, new URL(args.request.url).searchParams.get("nextUrl"));
  if (office.isLoggedIn) throw await office.redirect(nextUrl);
  return {
    nextUrl,
    isPreview: office.testing,
    isAnonymousAllowed: office.event.accessMethods.includes("anonymous"),
  };
}

/**
 * Testing logins are for the event's staff only (DESIGN 4): the preview signs in with the back-office
 * account first, and asks for the testing login with that user's token. The staff token is not kept.
 */
async function staffAccessToken(office: TicketOffice, form: FormData) {
  const { accessToken } = await office.api.post<TokenPair>("/auth/login", {
    email: String(form.get("email") ?? ""),
    password: String(form.get("password") ?? ""),
  });
  return accessToken;
}

export async function action(args: Route.ActionArgs) {
  const office = await TicketOffice.open(args);
  const form = await args.request.formData();
  // A second submit (a double click, a stale page) must not replace the login that holds the basket.
  if (office.isLoggedIn) return office.redirect(nextUrlOf(office, form.get("nextUrl")));
  try {
    const api = office.testing
      ? createApiClient({
          context: args.context,
          locale: office.language,
          accessToken: await staffAccessToken(office, form),
        })
      : office.api;
    const login = await api.post<AnonymousLogin>("/auth/anonymous-login", {
      activeModuleId: office.event.registrationModuleId,
      isTesting: office.testing,
    });
    office.setLogin(login);
  } catch (error) {
    if (error instanceof ApiError) return office.data({ errors: error.errors }, { status: error.status });
    throw error;
  }
  return office.redirect(nextUrlOf(office, form.get("nextUrl")));
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { nextUrl, isPreview, isAnonymousAllowed } = loaderData;
  const { t } = useTranslation();
  const isSubmitting = useNavigation().state === "submitting";
  const submitOnce = useSubmitOnce();
  const title = isPreview ? t("login.staffTitle") : t("login.title");
  return (
    <section className="narrow">
      <title>{title}</title>
      <h1>{title}</h1>
      <ErrorMessages errors={actionData?.errors} />
      {isPreview ? (
        <Form method="post" className="stack" onSubmit={submitOnce}>
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
          <button type="submit" className="button button-primary" aria-disabled={isSubmitting}>
            {t("login.staffSubmit")}
          </button>
        </Form>
      ) : isAnonymousAllowed ? (
        <Form method="post" onSubmit={submitOnce}>
          <p>{t("login.anonymousText")}</p>
          <input type="hidden" name="nextUrl" value={nextUrl} />
          <button type="submit" className="button button-primary" aria-disabled={isSubmitting}>
            {t("login.anonymous")}
          </button>
        </Form>
      ) : (
        <p className="alert alert-info">{t("login.unavailable")}</p>
      )}
    </section>
  );
}
