import { data } from "react-router";
import type { Route } from "./+types/route";

/** An unknown path; also the error page of a download that failed, for the status the product server gives. */
export function loader({ context }: Route.LoaderArgs) {
  throw data(null, { status: context.errorStatus ?? 404 });
}
