import { useRouteLoaderData } from "react-router";
import type { loader } from "../routes/tickets.$path";

/** The ticket office (event, testing mode, base path) loaded by the `tickets/:path` layout. */
export function useOffice() {
  const office = useRouteLoaderData<typeof loader>("routes/tickets.$path");
  if (!office) throw new Error("useOffice is only available inside the ticket office");
  return office;
}
