import { type ReactNode, useEffect } from "react";
import { useBasename, useCheckAuth } from "react-admin";
import { useNavigate } from "react-router";

/** Where a signed-in user lands: the first resource's list (react-admin's home would redirect there again). */
const HOME_PATH = "/events";

/**
 * docs/specification.md §2.2 / §6: signed-in users visiting login or register go to the back office's home, in one
 * navigation that replaces the auth page (the back button does not bring them back to a form they cannot use).
 */
export const AnonymousOnly = ({ children }: { children: ReactNode }) => {
  const checkAuth = useCheckAuth();
  const navigate = useNavigate();
  const basename = useBasename();
  useEffect(() => {
    let isCurrent = true; // StrictMode runs the effect twice: only the mounted one navigates
    checkAuth({}, false).then(
      () => {
        if (isCurrent) navigate(`${basename}${HOME_PATH}`, { replace: true });
      },
      () => undefined, // anonymous: stay
    );
    return () => {
      isCurrent = false;
    };
  }, [checkAuth, navigate, basename]);
  return <>{children}</>;
};
