import { Alert } from "@mui/material";
import { useState } from "react";
import { email, Form, required, TextInput, useDataProvider, useTranslate } from "react-admin";
import type { Registration, TicketingDataProvider } from "../dataProvider.ts";
import { AnonymousOnly } from "./AnonymousOnly.tsx";
import { AuthCard, AuthLinks } from "./AuthCard.tsx";
import { NewPasswordInputs } from "./PasswordInputs.tsx";
import { SubmitButton } from "./SubmitButton.tsx";
import { useApiForm } from "./useApiForm.ts";

/** docs/specification.md §2.2 register: creates an account; the API mails a verification link. */
export const RegisterPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [isRegistered, setRegistered] = useState(false);
  const { isSubmitting, onSubmit } = useApiForm(async (values: Registration) => {
    await dataProvider.register(values);
    setRegistered(true);
  });
  return (
    <AnonymousOnly>
      <AuthCard title="admin.auth.register.title">
        {isRegistered ? (
          <Alert severity="success" role="status">
            {translate("admin.auth.register.checkMailbox")}
          </Alert>
        ) : (
          <Form onSubmit={onSubmit}>
            <TextInput
              source="email"
              type="email"
              label={translate("admin.auth.email")}
              autoComplete="email"
              validate={[required(), email()]}
              fullWidth
            />
            <TextInput
              source="firstName"
              label={translate("admin.auth.firstName")}
              autoComplete="given-name"
              validate={required()}
              fullWidth
            />
            <TextInput
              source="lastName"
              label={translate("admin.auth.lastName")}
              autoComplete="family-name"
              validate={required()}
              fullWidth
            />
            <NewPasswordInputs />
            <SubmitButton label="admin.auth.register.submit" isSubmitting={isSubmitting} />
          </Form>
        )}
        <AuthLinks login passwordReset />
      </AuthCard>
    </AnonymousOnly>
  );
};
