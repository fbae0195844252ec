import { useState } from "react";
import {
  Form,
  required,
  TextInput,
  useAuthProvider,
  useAuthState,
  useNotify,
  useRedirect,
  useTranslate,
} from "react-admin";
import { useLocation, useNavigate } from "react-router";
import { AnonymousOnly } from "../auth/AnonymousOnly.tsx";
import { AuthCard, AuthLinks } from "../auth/AuthCard.tsx";
import { CurrentPasswordInput } from "../auth/PasswordInputs.tsx";
import { SubmitButton } from "../auth/SubmitButton.tsx";

interface Credentials {
  email: string;
  password: string;
}

/**
 * Not react-admin's <LoginForm>: at /auth/login the page is a custom route, and react-admin's routes
 * stay mounted with their cached "not signed in" answer; navigating right after the login would log
 * out again. The form refreshes that answer before going on.
 */
const EmailLoginForm = () => {
  const translate = useTranslate();
  const authProvider = useAuthProvider();
  const { refetch } = useAuthState(undefined, false, { enabled: false });
  const notify = useNotify();
  const redirect = useRedirect();
  const location = useLocation();
  const navigate = useNavigate();
  const [isSubmitting, setSubmitting] = useState(false);
  const onSubmit = async (values: Record<string, unknown>) => {
    if (!authProvider || isSubmitting) return;
    setSubmitting(true);
    try {
      await authProvider.login(values as unknown as Credentials);
    } catch (error) {
      setSubmitting(false);
      notify(error instanceof Error && error.message ? error.message : "ra.auth.sign_in_error", { type: "error" });
      return;
    }
    await refetch();
    // react-admin remembers the page that asked for a login (a full path, basename included).
    const state = location.state as { nextPathname?: string; nextSearch?: string } | null;
    if (state?.nextPathname) navigate(`${state.nextPathname}${state.nextSearch ?? ""}`);
    else redirect(() => "/");
  };
  return (
    <Form onSubmit={onSubmit}>
      <TextInput
        autoFocus
        source="email"
        type="email"
        label={translate("admin.auth.email")}
        autoComplete="username"
        validate={required()}
        fullWidth
      />
      <CurrentPasswordInput source="password" label="admin.auth.password" />
      <SubmitButton label="ra.auth.sign_in" isSubmitting={isSubmitting} />
    </Form>
  );
};

/**
 * The API logs in with an email (docs/api.md), not react-admin's default username. Not react-admin's <Login>
 * frame either: its own "already signed in" check navigates to the site's root, outside the back office.
 */
export const LoginPage = () => (
  <AnonymousOnly>
    <AuthCard title="ra.auth.sign_in">
      <EmailLoginForm />
      <AuthLinks register passwordReset />
    </AuthCard>
  </AnonymousOnly>
);
