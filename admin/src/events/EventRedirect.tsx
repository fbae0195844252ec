import { Navigate, useLocation } from "react-router";

/**
 * docs/specification.md §2.2's redirects between an event's pages (`/events/1` → `/events/1/edit`, `…/settings` →
 * `…/settings/status`): `to` is relative to the matched route; the address's query (`?tab=…`) is kept.
 */
export const EventRedirect = ({ to }: { to: string }) => {
  const { search } = useLocation();
  return <Navigate to={{ pathname: to, search }} replace />;
};
