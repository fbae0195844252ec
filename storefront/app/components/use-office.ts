import { useRouteLoaderData } from "react-router";
import type { loader } from "../routes/tickets/$path/layout";

/**
 * The ticket office (event, testing mode, base path) loaded by the `tickets/:path` layout. Every page but the
 * sign-in of a preview not signed in yet (which knows no event, and does not use this) has its event.
 */
export function useOffice() {
  const office = useRouteLoaderData<typeof loader>("routes/tickets/$path/layout");
  if (!office?.event) throw new Error("useOffice is only available inside the ticket office, once its event is known");
  return { ...office, event: office.event };
}
