import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import DeleteIcon from "@mui/icons-material/Delete";
import { Alert, Box, IconButton, InputAdornment, TextField, Tooltip, Typography } from "@mui/material";
import type { Unit, UnitStripeSettings } from "@ticketing/shared/schemas/units";
import { useId, useState } from "react";
import {
  Form,
  RecordContextProvider,
  required,
  TextInput,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from "react-admin";
import { SubmitButton } from "../auth/SubmitButton.tsx";
import { useApiForm } from "../auth/useApiForm.ts";
import type { TicketingDataProvider } from "../dataProvider.ts";
import { ConfirmButton } from "../fields/ConfirmButton.tsx";
import { useUnitPermissions } from "./UnitEdit.tsx";

const NO_SECRETS = { secretKey: "", webhookSecret: "" };

const errorMessageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : "admin.errors.unexpected";

/** The address Stripe sends the unit's events to, to paste in Stripe's dashboard. */
const WebhookUrl = ({ url }: { url: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      notify("admin.units.stripe.copied", { type: "info" });
    } catch {
      notify("admin.errors.unexpected", { type: "error" });
    }
  };
  return (
    <TextField
      label={translate("admin.units.stripe.webhookUrl")}
      value={url}
      helperText={translate("admin.units.stripe.webhookHelp")}
      fullWidth
      margin="normal"
      slotProps={{
        input: {
          readOnly: true,
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={translate("admin.units.stripe.copy")}>
                <IconButton aria-label={translate("admin.units.stripe.copy")} onClick={copy} edge="end">
                  <ContentCopyIcon />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
};

/** Forgets the unit's Stripe account, after a confirmation saying what it means for the unit's events. */
const RemoveStripeButton = ({ unitId }: { unitId: Unit["id"] }) => {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const remove = async () => {
    try {
      await dataProvider.removeUnitStripe(unitId);
      notify("admin.units.stripe.removed", { type: "success" });
      refresh();
    } catch (error) {
      notify(errorMessageOf(error), { type: "error" });
    }
  };
  return (
    <ConfirmButton
      color="error"
      icon={<DeleteIcon />}
      label="admin.units.stripe.remove"
      title="admin.units.stripe.removeTitle"
      content="admin.units.stripe.removeConfirm"
      onConfirm={remove}
    />
  );
};

/** The two secrets, write-only: the form starts empty and is emptied again once they are saved. */
const StripeSecretsForm = ({ unitId }: { unitId: Unit["id"] }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [formKey, setFormKey] = useState(0);
  const { isSubmitting, onSubmit } = useApiForm(async (values: UnitStripeSettings) => {
    await dataProvider.setUnitStripe(unitId, values);
    notify("admin.units.stripe.saved", { type: "success" });
    setFormKey((key) => key + 1);
    refresh(); // the unit now answers is_stripe_configured
  });
  return (
    // Its own record: the inputs must not start from the page's unit.
    <RecordContextProvider value={NO_SECRETS}>
      <Form key={formKey} record={NO_SECRETS} onSubmit={onSubmit}>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {translate("admin.units.stripe.writeOnly")}
        </Typography>
        <TextInput
          source="secretKey"
          type="password"
          label={translate("admin.units.stripe.secretKey")}
          helperText={translate("admin.units.stripe.secretKeyHelp")}
          validate={required()}
          autoComplete="off"
          fullWidth
        />
        <TextInput
          source="webhookSecret"
          type="password"
          label={translate("admin.units.stripe.webhookSecret")}
          helperText={translate("admin.units.stripe.webhookSecretHelp")}
          validate={required()}
          autoComplete="off"
          fullWidth
        />
        <Box sx={{ maxWidth: 320 }}>
          <SubmitButton label="admin.units.stripe.save" isSubmitting={isSubmitting} />
        </Box>
      </Form>
    </RecordContextProvider>
  );
};

/**
 * The unit's Stripe account (docs/design.md §4 "Payments"): whether it is set, for everyone who sees the unit; the
 * webhook address, the secrets' form and their removal for its owners and superusers (the API refuses members
 * with 403).
 */
export const StripePanel = () => {
  const unit = useRecordContext<Unit>();
  const translate = useTranslate();
  const headingId = useId();
  const { canEdit } = useUnitPermissions();
  if (!unit) return null;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ p: 2, maxWidth: 720 }}>
      <Typography variant="h6" component="h2" id={headingId} gutterBottom>
        {translate("admin.units.stripe.title")}
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {translate("admin.units.stripe.intro")}
      </Typography>
      <Alert severity={unit.isStripeConfigured ? "success" : "info"} sx={{ my: 1 }}>
        {translate(unit.isStripeConfigured ? "admin.units.stripe.configured" : "admin.units.stripe.notConfigured")}
      </Alert>
      {canEdit ? (
        <>
          <WebhookUrl url={unit.stripeWebhookUrl} />
          <StripeSecretsForm unitId={unit.id} />
          {unit.isStripeConfigured && (
            <Box sx={{ mt: 2 }}>
              <RemoveStripeButton unitId={unit.id} />
            </Box>
          )}
        </>
      ) : (
        <Typography variant="body2">{translate("admin.units.stripe.ownersOnly")}</Typography>
      )}
    </Box>
  );
};
