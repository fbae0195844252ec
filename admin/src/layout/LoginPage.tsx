import { Box } from "@mui/material";
import { Login, LoginForm, required, TextInput, useTranslate } from "react-admin";
import { AuthLinks } from "../auth/AuthCard.tsx";
import { LanguageSwitch } from "./LanguageSwitch.tsx";

/** The API logs in with an email (docs/api.md), not react-admin's default username. */
export const LoginPage = () => {
  const translate = useTranslate();
  return (
    <Login>
      <LoginForm>
        <TextInput
          autoFocus
          source="email"
          type="email"
          label={translate("admin.auth.email")}
          autoComplete="username"
          validate={required()}
        />
        {/* Not <PasswordInput>: its "Show password" toggle would also answer getByLabel("Password"). */}
        <TextInput
          source="password"
          type="password"
          label={translate("admin.auth.password")}
          autoComplete="current-password"
          validate={required()}
        />
      </LoginForm>
      <Box sx={{ px: 2 }}>
        <AuthLinks register passwordReset />
      </Box>
      {/* The app bar's language switch is not there before signing in. */}
      <Box sx={{ display: "flex", justifyContent: "center", pb: 1 }}>
        <LanguageSwitch />
      </Box>
    </Login>
  );
};
