import { type ReactNode, useEffect } from "react";
import { useCheckAuth, useRedirect } from "react-admin";

/** SPEC 2.2 / 6: signed-in users visiting login or register go to the back office's home. */
export const AnonymousOnly = ({ children }: { children: ReactNode }) => {
  const checkAuth = useCheckAuth();
  const redirect = useRedirect();
  useEffect(() => {
    checkAuth({}, false).then(
      () => redirect(() => "/"),
      () => undefined, // anonymous: stay
    );
  }, [checkAuth, redirect]);
  return <>{children}</>;
};
