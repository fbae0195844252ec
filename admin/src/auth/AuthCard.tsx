import { Box, Card, CardContent, Link, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { useBasename, useTranslate } from "react-admin";
import { Link as RouterLink } from "react-router";
import { LanguageSwitch } from "../layout/LanguageSwitch.tsx";

/** A link inside the back office (`to` is relative to /admin). */
export const AdminLink = ({ to, children }: { to: string; children: ReactNode }) => {
  const basename = useBasename();
  return (
    <Link component={RouterLink} to={`${basename}${to}`}>
      {children}
    </Link>
  );
};

/** The frame of the anonymous auth pages (register, verify, password reset): a centred card. */
export const AuthCard = ({ title, children }: { title: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box
      component="main"
      sx={{
        minHeight: "100vh",
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        bgcolor: "background.default",
        p: 2,
      }}
    >
      <Card sx={{ width: "100%", maxWidth: 440 }}>
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom>
            {translate(title)}
          </Typography>
          {children}
        </CardContent>
        <Box sx={{ display: "flex", justifyContent: "center", pb: 1 }}>
          <LanguageSwitch />
        </Box>
      </Card>
    </Box>
  );
};

/** docs/specification.md §2.2: login ↔ register ↔ forgotten password. */
export const AuthLinks = ({ login = false, register = false, passwordReset = false }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 0.5, mt: 2 }}>
      {login && <AdminLink to="/auth/login">{translate("admin.auth.links.login")}</AdminLink>}
      {register && <AdminLink to="/auth/register">{translate("admin.auth.links.register")}</AdminLink>}
      {passwordReset && (
        <AdminLink to="/auth/password-reset-request">{translate("admin.auth.links.passwordReset")}</AdminLink>
      )}
    </Box>
  );
};
