import { redirect } from "react-router";
import { isLanguage } from "../i18n";
import { languageCookie } from "../i18n.server";
import { safeNextUrl } from "../lib/next-url";
import type { Route } from "./+types/language";

/** The footer's language switch posts here; the choice is kept in the `lng` cookie. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const language = form.get("lng");
  const back = safeNextUrl(form.get("redirectTo"), "/");
  if (!isLanguage(language)) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": await languageCookie.serialize(language) } });
}

export function loader() {
  return redirect("/");
}
