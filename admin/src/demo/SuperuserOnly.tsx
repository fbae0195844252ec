import { CircularProgress } from "@mui/material";
import type { ReactNode } from "react";
import { useAuthenticated, useGetIdentity } from "react-admin";
import { AccessDeniedPage } from "../layout/ErrorPages.tsx";

/**
 * docs/specification.md §2.1 / §6: the demo's two guards: signed in (otherwise the login page), then superuser
 * (otherwise the Access denied page).
 */
export const SuperuserOnly = ({ children }: { children: ReactNode }) => {
  const { isPending: isCheckingSession } = useAuthenticated();
  const { identity, isPending } = useGetIdentity();
  if (isCheckingSession || isPending) return <CircularProgress sx={{ m: 4 }} aria-busy />;
  return identity?.isSuperuser === true ? children : <AccessDeniedPage />;
};
