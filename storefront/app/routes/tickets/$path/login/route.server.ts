import type { AnonymousLogin } from "@ticketing/shared/schemas/auth";
import { getFixedT } from "#app/i18n.server.ts";
import { ApiError } from "#app/lib/api.server.ts";
import { safeNextUrl } from "#app/lib/next-url.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import { type OfficeVisit, PreviewSignIn, TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

const nextUrlOf = (office: OfficeVisit, value: FormDataEntryValue | null) => safeNextUrl(value, office.href("buy"));

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.enter(args);
  const query = new URL(args.request.url).searchParams;
  const nextUrl = nextUrlOf(office, query.get("nextUrl"));
  // A preview not signed in yet knows nothing of its event: only the staff sign-in is shown.
  if (office instanceof PreviewSignIn) return { nextUrl, isPreview: true, accessMethods: [], isEmailSent: false };
  if (office.isLoggedIn) throw await office.redirect(nextUrl);
  return {
    nextUrl,
    isPreview: office.testing,
    // docs/design.md §4: the event's access methods decide which logins are offered.
    accessMethods: office.event.accessMethods,
    isEmailSent: query.get("emailSent") === "1",
  };
}

export type ActionResult = { errors: string[]; emailError?: string; email?: string };

/**
 * Testing logins are for the event's staff only (docs/design.md §4): the preview signs in with the back-office account
 * first, and opens the preview with that user's token, if the event is theirs to preview.
 */
async function signInToPreview(office: OfficeVisit, form: FormData, nextUrl: string) {
  try {
    const accessToken = await office.signInStaff(String(form.get("email") ?? ""), String(form.get("password") ?? ""));
    if (!(await office.signInToPreview(accessToken))) {
      const t = getFixedT(office.language);
      return office.data<ActionResult>({ errors: [t("login.previewForbidden")] }, { status: 403 });
    }
  } catch (error) {
    if (error instanceof ApiError) return office.data<ActionResult>({ errors: error.errors }, { status: error.status });
    throw error;
  }
  return office.redirect(nextUrl);
}

export async function action(args: Route.ActionArgs) {
  const form = await readPostedForm(args.request);
  const office = await TicketOffice.enter(args);
  const nextUrl = nextUrlOf(office, form.get("nextUrl"));
  // A second submit (a double click, a stale page) must not replace the login that holds the basket.
  if (office instanceof TicketOffice && office.isLoggedIn) return office.redirect(nextUrl);
  if (office instanceof PreviewSignIn || office.testing) return signInToPreview(office, form, nextUrl);
  const activeModuleId = office.event.registrationModuleId;
  const methods = office.event.accessMethods;
  const deviceCookies: string[] = [];
  try {
    if (form.get("intent") === "trustedEmail" && methods.includes("trusted_email")) {
      const email = String(form.get("email") ?? "").trim();
      if (!EMAIL.test(email)) {
        const t = getFixedT(office.language);
        const emailError = email ? t("forms.errors.email") : t("forms.errors.required");
        return office.data<ActionResult>({ errors: [], emailError, email }, { status: 400 });
      }
      // The link in the mail comes back to `login/verify/…?nextUrl=…`.
      await office.api.post("/auth/trusted-email-login", { activeModuleId, isTesting: false, email, nextUrl });
      const sent = new URLSearchParams({ emailSent: "1", nextUrl });
      return office.redirect(`${office.href("login")}?${sent}`);
    }
    if (!methods.includes("anonymous")) {
      const t = getFixedT(office.language);
      return office.data<ActionResult>({ errors: [t("login.unavailable")] }, { status: 409 });
    }
    // Guest sign-ins are counted per browser (docs/decisions/0036): its device cookie goes to the API, and the one
    // the API gives a browser at its first guest sign-in comes back to it, as the preview's staff sign-in does.
    const { answer: login, setCookies } = await office.api.signIn<AnonymousLogin>(
      "/auth/anonymous-login",
      { activeModuleId, isTesting: false },
      args.request.headers.get("Cookie"),
    );
    office.setLogin(login);
    deviceCookies.push(...setCookies);
  } catch (error) {
    if (error instanceof ApiError) {
      const emailError = error.fieldErrors.email;
      const errors = emailError ? error.errors.filter((message) => message !== emailError) : error.errors;
      const email = String(form.get("email") ?? "");
      return office.data<ActionResult>({ errors, emailError, email }, { status: error.status });
    }
    throw error;
  }
  const response = await office.redirect(nextUrl);
  for (const cookie of deviceCookies) response.headers.append("Set-Cookie", cookie);
  return response;
}
