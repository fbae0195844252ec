import { redirect } from "react-router";
import { languageCookie } from "#app/i18n.server.ts";
import { isLanguage } from "#app/i18n.ts";
import { safeNextUrl } from "#app/lib/next-url.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import type { Route } from "./+types/route";

/** The footer's language switch posts here; the choice is kept in the `lng` cookie. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readPostedForm(request);
  const language = form.get("lng");
  const back = safeNextUrl(form.get("redirectTo"), "/");
  if (!isLanguage(language)) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": await languageCookie.serialize(language) } });
}

export function loader() {
  return redirect("/");
}
