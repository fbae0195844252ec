import { data } from "react-router";
import type { Route } from "./+types/route";

/** An unknown path; also the error page of a download that failed, for the status the product server gives. */
export function loader({ context }: Route.LoaderArgs) {
  throw data(null, { status: context.errorStatus ?? 404 });
}

// The root error boundary renders "Page not found" (or the status's page).
export default function NotFound() {
  return null;
}
