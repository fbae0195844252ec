// What a screen shows until its record is there: a named spinner while it loads, the API's message if it failed.
import { Alert, CircularProgress } from "@mui/material";
import { useTranslate } from "react-admin";
import { submissionErrorsOf } from "../apiErrors.ts";

export function LoadState({ error }: { error: unknown }) {
  const translate = useTranslate();
  if (!error) return <CircularProgress sx={{ m: 2 }} aria-label={translate("ra.page.loading")} />;
  return (
    <Alert severity="error" sx={{ m: 2 }}>
      {translate(submissionErrorsOf(error).message)}
    </Alert>
  );
}
