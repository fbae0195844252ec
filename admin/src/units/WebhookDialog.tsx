// Adding or changing a webhook endpoint: its URL, a description and the events it receives (a checkbox each). The
// API's 400 messages (an http address that is not this machine's, no event chosen) are shown in the dialog.
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  TextField,
} from "@mui/material";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@ticketing/shared/constants";
import type { Unit } from "@ticketing/shared/schemas/units";
import type { Webhook } from "@ticketing/shared/schemas/webhooks";
import { type FormEvent, useId, useState } from "react";
import { useDataProvider, useNotify, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../dataProvider.ts";

export const WebhookDialog = ({
  unitId,
  webhook,
  onClose,
  onSaved,
}: {
  unitId: Unit["id"];
  /** null: a new endpoint. */
  webhook: Webhook | null;
  onClose: () => void;
  onSaved: () => Promise<void>;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const titleId = useId();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [url, setUrl] = useState(webhook?.url ?? "https://");
  const [description, setDescription] = useState(webhook?.description ?? "");
  const [events, setEvents] = useState<WebhookEventType[]>(webhook?.events ?? [...WEBHOOK_EVENT_TYPES]);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const toggle = (type: WebhookEventType) =>
    setEvents((chosen) => (chosen.includes(type) ? chosen.filter((each) => each !== type) : [...chosen, type]));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      await dataProvider.unitWebhooks(unitId, webhook ? `/${webhook.id}` : "", {
        method: webhook ? "PUT" : "POST",
        body: { url, description, events },
      });
      notify("admin.units.webhooks.saved", { type: "success" });
      await onSaved();
    } catch (caught) {
      setError(caught instanceof Error && caught.message ? caught.message : "admin.errors.unexpected");
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>
          {translate(webhook ? "admin.units.webhooks.editTitle" : "admin.units.webhooks.addTitle")}
        </DialogTitle>
        <DialogContent>
          {error && (
            <Alert severity="error" sx={{ mb: 1 }} role="alert">
              {translate(error, { _: error })}
            </Alert>
          )}
          <TextField
            label={translate("admin.units.webhooks.url")}
            helperText={translate("admin.units.webhooks.urlHelp")}
            value={url}
            onChange={(change) => setUrl(change.target.value)}
            type="url"
            required
            fullWidth
            margin="normal"
            autoFocus
          />
          <TextField
            label={translate("admin.units.webhooks.description")}
            value={description}
            onChange={(change) => setDescription(change.target.value)}
            fullWidth
            margin="normal"
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          <FormControl component="fieldset" margin="normal">
            <FormLabel component="legend">{translate("admin.units.webhooks.events")}</FormLabel>
            <FormGroup>
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <FormControlLabel
                  key={type}
                  control={<Checkbox checked={events.includes(type)} onChange={() => toggle(type)} />}
                  label={`${translate(`admin.units.webhooks.eventTypes.${type}`)} (${type})`}
                />
              ))}
            </FormGroup>
          </FormControl>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate("admin.units.webhooks.cancel")}</Button>
          <Button type="submit" variant="contained" disabled={isSaving}>
            {translate("admin.units.webhooks.save")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
