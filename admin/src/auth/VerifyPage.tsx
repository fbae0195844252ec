import { Alert, CircularProgress, Typography } from "@mui/material";
import { useEffect, useRef, useState } from "react";
import { useDataProvider, useTranslate } from "react-admin";
import { useParams } from "react-router";
import { LOGIN_PATH } from "../authProvider.ts";
import type { TicketingDataProvider } from "../dataProvider.ts";
import { AdminLink, AuthCard } from "./AuthCard.tsx";
import { useRedirectCountdown } from "./countdown.ts";

type Verification = "pending" | "verified" | "failed";

/**
 * docs/specification.md §2.2 verify: confirms the email on load, then counts down to the login page
 * (docs/specification.md §8 on failure).
 */
export const VerifyPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const { userIdB64 = "", hash = "" } = useParams();
  const [verification, setVerification] = useState<Verification>("pending");
  // The link is single-use: StrictMode's second effect run must not post it again.
  const posted = useRef<string | null>(null);
  useEffect(() => {
    const key = `${userIdB64}/${hash}`;
    if (posted.current === key) return;
    posted.current = key;
    dataProvider.verifyRegistration(userIdB64, hash).then(
      () => setVerification("verified"),
      () => setVerification("failed"),
    );
  }, [dataProvider, userIdB64, hash]);
  const seconds = useRedirectCountdown(verification !== "pending", LOGIN_PATH);

  return (
    <AuthCard title="admin.auth.verify.title">
      {verification === "pending" && <CircularProgress aria-label={translate("admin.auth.verify.pending")} />}
      {verification === "verified" && (
        <Alert severity="success" role="status">
          {translate("admin.auth.verify.success")}
        </Alert>
      )}
      {verification === "failed" && (
        <Alert severity="error" role="alert">
          {translate("admin.auth.verify.failure")}
        </Alert>
      )}
      {verification !== "pending" && (
        <Typography sx={{ mt: 2 }} aria-live="polite">
          {translate("admin.auth.verify.redirect", { smart_count: seconds })}{" "}
          <AdminLink to={LOGIN_PATH}>{translate("admin.auth.links.loginNow")}</AdminLink>
        </Typography>
      )}
    </AuthCard>
  );
};
