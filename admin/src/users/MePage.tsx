import { Box, Card, CardContent, CircularProgress } from "@mui/material";
import { useEffect, useState } from "react";
import {
  Form,
  required,
  TextInput,
  Title,
  useDataProvider,
  useGetIdentity,
  useNotify,
  useTranslate,
} from "react-admin";
import { AdminLink } from "../auth/AuthCard.tsx";
import { SubmitButton } from "../auth/SubmitButton.tsx";
import { useApiForm } from "../auth/useApiForm.ts";
import type { Me, TicketingDataProvider } from "../dataProvider.ts";

type Names = { firstName: string; lastName: string };

/** docs/specification.md §2.2 me: the user's names (editable), email (read-only) and a link to change the password. */
export const MePage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const notify = useNotify();
  const { refetch: refetchIdentity } = useGetIdentity();
  const [me, setMe] = useState<Me | null>(null);
  useEffect(() => {
    dataProvider.getMe().then(
      ({ data }) => setMe(data),
      () => notify("admin.errors.unexpected", { type: "error" }),
    );
  }, [dataProvider, notify]);
  const { isSubmitting, onSubmit } = useApiForm(async (names: Names) => {
    const { data } = await dataProvider.updateMe({ firstName: names.firstName, lastName: names.lastName });
    setMe(data);
    notify("admin.users.saved", { type: "success" });
    refetchIdentity(); // the app bar shows the full name
  });
  return (
    <Box sx={{ maxWidth: 480, mt: 2 }}>
      <Title title="admin.users.me" />
      <Card>
        <CardContent>
          {me === null ? (
            <CircularProgress size={24} />
          ) : (
            <Form record={me} onSubmit={onSubmit}>
              <TextInput source="email" label={translate("admin.auth.email")} readOnly fullWidth />
              <TextInput source="firstName" label={translate("admin.auth.firstName")} validate={required()} fullWidth />
              <TextInput source="lastName" label={translate("admin.auth.lastName")} validate={required()} fullWidth />
              <SubmitButton label="ra.action.save" isSubmitting={isSubmitting} />
            </Form>
          )}
          <Box sx={{ mt: 2 }}>
            <AdminLink to="/auth/password-change">{translate("admin.auth.passwordChange.title")}</AdminLink>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
};
