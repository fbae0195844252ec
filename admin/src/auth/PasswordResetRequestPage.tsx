import { Alert } from "@mui/material";
import { useState } from "react";
import { email, Form, required, TextInput, useDataProvider, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../dataProvider.ts";
import { AuthCard, AuthLinks } from "./AuthCard.tsx";
import { SubmitButton } from "./SubmitButton.tsx";

/** docs/specification.md §8: the same neutral message whether the account exists, and whatever the API answered. */
export const PasswordResetRequestPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [state, setState] = useState<"form" | "sending" | "sent">("form");
  const onSubmit = async (values: Record<string, unknown>) => {
    if (state !== "form") return;
    setState("sending");
    await dataProvider.requestPasswordReset(String(values.email)).catch(() => undefined);
    setState("sent");
  };
  return (
    <AuthCard title="admin.auth.passwordResetRequest.title">
      {state === "sent" ? (
        <Alert severity="info" role="status">
          {translate("admin.auth.passwordResetRequest.sent")}
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
          <SubmitButton label="admin.auth.passwordResetRequest.submit" isSubmitting={state === "sending"} />
        </Form>
      )}
      <AuthLinks login register />
    </AuthCard>
  );
};
