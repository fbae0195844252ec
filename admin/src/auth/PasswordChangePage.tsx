import { Box, Card, CardContent } from "@mui/material";
import { Form, Title, useDataProvider, useNotify, useRedirect } from "react-admin";
import type { PasswordChange, TicketingDataProvider } from "../dataProvider.ts";
import { CurrentPasswordInput, NewPasswordInputs } from "./PasswordInputs.tsx";
import { SubmitButton } from "./SubmitButton.tsx";
import { useApiForm } from "./useApiForm.ts";

/** docs/specification.md §2.2 password-change (signed in, inside the layout). The API revokes the other sessions. */
export const PasswordChangePage = () => {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const notify = useNotify();
  const redirect = useRedirect();
  const { isSubmitting, onSubmit } = useApiForm(async (values: PasswordChange) => {
    await dataProvider.changePassword(values);
    notify("admin.auth.passwordChange.done", { type: "success" });
    redirect(() => "/users/me");
  });
  return (
    <Box sx={{ maxWidth: 480, mt: 2 }}>
      <Title title="admin.auth.passwordChange.title" />
      <Card>
        <CardContent>
          <Form onSubmit={onSubmit}>
            <CurrentPasswordInput source="currentPassword" label="admin.auth.currentPassword" />
            <NewPasswordInputs label="admin.auth.newPassword" />
            <SubmitButton label="admin.auth.passwordChange.submit" isSubmitting={isSubmitting} />
          </Form>
        </CardContent>
      </Card>
    </Box>
  );
};
