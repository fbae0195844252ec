import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { ErrorMessages } from "../components/error-messages";
import { ApiError } from "../lib/api.server";
import type { AnonymousLogin } from "../lib/api-types";
import { safeNextUrl } from "../lib/next-url";
import { TicketOffice } from "../lib/ticket-office.server";
import type { Route } from "./+types/tickets.$path.login";

const nextUrlOf = (office: TicketOffice, value: FormDataEntryValue | null) => safeNextUrl(value, office.href("buy"));

export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  const nextUrl = nextUrlOf(office, new URL(args.request.url).searchParams.get("nextUrl"));
  if (office.isLoggedIn) throw await office.redirect(nextUrl);
  return { nextUrl, isAnonymousAllowed: office.event.accessMethods.includes("anonymous") };
}

export async function action(args: Route.ActionArgs) {
  const office = await TicketOffice.open(args);
  const form = await args.request.formData();
  try {
    const login = await office.api.post<AnonymousLogin>("/auth/anonymous-login", {
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

export default function Login({ loaderData: { nextUrl, isAnonymousAllowed }, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const isSubmitting = useNavigation().state === "submitting";
  return (
    <section className="narrow">
      <title>{t("login.title")}</title>
      <h1>{t("login.title")}</h1>
      <ErrorMessages errors={actionData?.errors} />
      {isAnonymousAllowed ? (
        <Form method="post">
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
