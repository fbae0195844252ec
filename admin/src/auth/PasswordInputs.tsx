import { type PasswordProblem, passwordProblems } from "@ticketing/shared/passwords";
import { required, TextInput, useTranslate } from "react-admin";

// docs/specification.md §5 / §9: the rules are shared/src/passwords.ts's, the API's own, so that a password the form
// accepts is one the server accepts (an accented letter is a letter there, not a special character); the form only
// answers before the round trip, in the back office's words.
const PROBLEM_MESSAGES: Record<PasswordProblem, string> = {
  tooShort: "admin.validation.passwordLength",
  noSpecialCharacter: "admin.validation.passwordSpecialCharacter",
};

/** react-admin validator: an i18n key when the password is refused, undefined when it is fine. */
export function validatePassword(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined; // `required()` reports emptiness
  const [problem] = passwordProblems(value);
  return problem && PROBLEM_MESSAGES[problem];
}

/** react-admin validator of `passwordConfirmation`, next to a `password` input of the same form. */
export function validatePasswordConfirmation(value: unknown, values: Record<string, unknown>): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return value === values.password ? undefined : "admin.validation.passwordsMustMatch";
}

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

/** A new password and its confirmation (docs/specification.md §5). */
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
