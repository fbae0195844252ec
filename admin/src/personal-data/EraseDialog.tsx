// The erasure's confirmation (docs/decisions/0046): what it does, the events it covers, and the email typed again
// before the button acts. A failure keeps the dialog open with the server's message.
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from "@mui/material";
import type { PersonalData, PersonalDataErased } from "@ticketing/shared/schemas/personal-data";
import { type FormEvent, useId, useState } from "react";
import { useDataProvider, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../dataProvider.ts";

/** Whether `typed` is `email` again, as the API compares them (trimmed, any case). */
export const confirms = (email: string, typed: string) => typed.trim().toLowerCase() === email.trim().toLowerCase();

export const EraseDialog = ({
  data,
  onClose,
  onErased,
}: {
  data: PersonalData;
  onClose: () => void;
  onErased: (erased: PersonalDataErased) => void;
}) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const titleId = useId();
  const [typed, setTyped] = useState("");
  const [isPending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const matches = confirms(data.email, typed);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!matches || isPending) return;
    setPending(true);
    setFailure(null);
    try {
      const { data: erased } = await dataProvider.erasePersonalData(data.email, typed);
      onErased(erased);
    } catch (error) {
      const message = error instanceof Error && error.message ? translate(error.message, { _: error.message }) : "";
      setFailure(message || translate("admin.personalData.eraseFailed"));
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog open onClose={isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{translate("admin.personalData.eraseTitle")}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 1 }}>
            {translate("admin.personalData.eraseExplanation", { email: data.email })}
          </DialogContentText>
          <DialogContentText sx={{ mb: 2 }}>
            {data.unitIds === null
              ? translate("admin.personalData.eraseEverywhere")
              : translate("admin.personalData.eraseUnits", { units: data.unitNames.join(", ") })}
          </DialogContentText>
          <TextField
            autoFocus
            fullWidth
            required
            type="email"
            autoComplete="off"
            label={translate("admin.personalData.confirmLabel")}
            helperText={translate("admin.personalData.confirmHelp")}
            value={typed}
            onChange={(change) => setTyped(change.target.value)}
            error={typed.trim() !== "" && !matches}
          />
          {failure && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {failure}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={isPending}>
            {translate("ra.action.cancel")}
          </Button>
          <Button type="submit" color="error" variant="contained" disabled={!matches || isPending}>
            {translate("admin.personalData.eraseConfirm")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
