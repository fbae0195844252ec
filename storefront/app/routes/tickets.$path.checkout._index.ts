import { redirect } from "react-router";
import { locateOffice, officeHref } from "../lib/office-paths";
import type { Route } from "./+types/tickets.$path.checkout._index";

/** The wizard starts at its first step. */
export function loader({ request, params }: Route.LoaderArgs) {
  const { base } = locateOffice(new URL(request.url).pathname, params.path);
  return redirect(officeHref(base, "checkout/forms"));
}
