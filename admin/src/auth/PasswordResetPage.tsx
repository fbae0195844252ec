import { Form, useDataProvider, useNotify, useRedirect } from "react-admin";
import { useParams } from "react-router";
import { LOGIN_PATH } from "../authProvider.ts";
import type { TicketingDataProvider } from "../dataProvider.ts";
import { AuthCard, AuthLinks } from "./AuthCard.tsx";
import { NewPasswordInputs } from "./PasswordInputs.tsx";
import { SubmitButton } from "./SubmitButton.tsx";
import { useApiForm } from "./useApiForm.ts";

/** docs/specification.md §2.2 password-reset: the mailed link's page; a new password, then the login page. */
export const PasswordResetPage = () => {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const notify = useNotify();
  const redirect = useRedirect();
  const { userIdB64 = "", passwordResetTokenB64 = "" } = useParams();
  const { isSubmitting, onSubmit } = useApiForm(async (values: { password: string; passwordConfirmation: string }) => {
    await dataProvider.resetPassword({ userIdB64, tokenB64: passwordResetTokenB64, ...values });
    notify("admin.auth.passwordReset.done", { type: "success" });
    redirect(() => LOGIN_PATH);
  });
  return (
    <AuthCard title="admin.auth.passwordReset.title">
      <Form onSubmit={onSubmit}>
        <NewPasswordInputs label="admin.auth.newPassword" />
        <SubmitButton label="admin.auth.passwordReset.submit" isSubmitting={isSubmitting} />
      </Form>
      <AuthLinks login passwordReset />
    </AuthCard>
  );
};
