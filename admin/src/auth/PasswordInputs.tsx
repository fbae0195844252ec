import { required, TextInput, useTranslate } from "react-admin";
import { validatePassword, validatePasswordConfirmation } from "./passwordRules.ts";

// Plain text inputs of type password rather than <PasswordInput>: its "Show password" toggle would also answer
// getByLabel("Password").

/** The password the user has now (signing in, changing it). */
export const CurrentPasswordInput = ({ source, label }: { source: string; label: string }) => {
  const translate = useTranslate();
  return (
    <TextInput
      source={source}
      type="password"
      label={translate(label)}
      autoComplete="current-password"
      validate={required()}
      fullWidth
    />
  );
};

/** A new password and its confirmation (SPEC 5). */
export const NewPasswordInputs = ({ label = "admin.auth.password" }: { label?: string }) => {
  const translate = useTranslate();
  return (
    <>
      <TextInput
        source="password"
        type="password"
        label={translate(label)}
        autoComplete="new-password"
        validate={[required(), validatePassword]}
        helperText={translate("admin.auth.passwordHint")}
        fullWidth
      />
      <TextInput
        source="passwordConfirmation"
        type="password"
        label={translate("admin.auth.passwordConfirmation")}
        autoComplete="new-password"
        validate={[required(), validatePasswordConfirmation]}
        fullWidth
      />
    </>
  );
};
