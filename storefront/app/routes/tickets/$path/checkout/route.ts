import { redirect } from "react-router";
import { locateOffice, officeHref } from "#app/lib/office-paths.ts";
import type { Route } from "./+types/route";

/** The wizard starts at its first step. */
export function loader({ request, params }: Route.LoaderArgs) {
  const { base } = locateOffice(new URL(request.url).pathname, params.path);
  return redirect(officeHref(base, "checkout/forms"));
}
