// A unit's webhooks (docs/decisions/0045-webhooks.md), for its owners and superusers: its endpoints (URL, events,
// on or off, failing since), their secret with copy and roll, a test, and each one's delivery log with "Send again".
import AddIcon from "@mui/icons-material/Add";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import DeleteIcon from "@mui/icons-material/Delete";
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  IconButton,
  InputAdornment,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import type { Unit } from "@ticketing/shared/schemas/units";
import type { Webhook } from "@ticketing/shared/schemas/webhooks";
import { useCallback, useEffect, useId, useState } from "react";
import { useDataProvider, useLocaleState, useNotify, useRecordContext, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../dataProvider.ts";
import { ConfirmButton } from "../fields/ConfirmButton.tsx";
import { useUnitPermissions } from "./UnitEdit.tsx";
import { WebhookDeliveries } from "./WebhookDeliveries.tsx";
import { WebhookDialog } from "./WebhookDialog.tsx";

const errorMessageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : "admin.errors.unexpected";

/** A moment as the reader's language writes it, to the minute. */
export function useFormatMoment() {
  const [locale] = useLocaleState();
  return (iso: string) =>
    new Intl.DateTimeFormat(locale === "fr" ? "fr-CH" : "en-GB", { dateStyle: "medium", timeStyle: "short" }).format(
      new Date(iso),
    );
}

/** The endpoints' calls, refreshing the list after each change. */
function useWebhooks(unitId: Unit["id"]) {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [webhooks, setWebhooks] = useState<Webhook[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setWebhooks((await dataProvider.unitWebhooks<Webhook[]>(unitId, "")).data);
      setLoadError(null);
    } catch (error) {
      setLoadError(errorMessageOf(error));
    }
  }, [dataProvider, unitId]);
  useEffect(() => {
    void load();
  }, [load]);
  return { webhooks, loadError, load, dataProvider };
}

const SecretField = ({ secret }: { secret: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      notify("admin.units.webhooks.copied", { type: "info" });
    } catch {
      notify("admin.errors.unexpected", { type: "error" });
    }
  };
  return (
    <TextField
      label={translate("admin.units.webhooks.secret")}
      value={secret}
      size="small"
      fullWidth
      margin="dense"
      slotProps={{
        input: {
          readOnly: true,
          sx: { fontFamily: "monospace", fontSize: "0.85rem" },
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={translate("admin.units.webhooks.copySecret")}>
                <IconButton aria-label={translate("admin.units.webhooks.copySecret")} onClick={copy} edge="end">
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

const EndpointCard = ({
  unitId,
  webhook,
  onChanged,
  onEdit,
}: {
  unitId: Unit["id"];
  webhook: Webhook;
  onChanged: () => Promise<void>;
  onEdit: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const format = useFormatMoment();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [isLogOpen, setLogOpen] = useState(false);
  const [logVersion, setLogVersion] = useState(0);
  const act = async (path: string, method: "POST" | "PUT" | "DELETE", body: unknown, done: string) => {
    try {
      await dataProvider.unitWebhooks(unitId, `/${webhook.id}${path}`, { method, body });
      notify(done, { type: "success" });
      await onChanged();
      setLogVersion((version) => version + 1);
    } catch (error) {
      notify(errorMessageOf(error), { type: "error" });
    }
  };
  return (
    <Card variant="outlined" component="li" sx={{ listStyle: "none", minWidth: 0 }}>
      <CardContent sx={{ pb: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1 }}>
          <Chip
            size="small"
            color={webhook.enabled ? "success" : "default"}
            label={translate(webhook.enabled ? "admin.units.webhooks.on" : "admin.units.webhooks.off")}
          />
          <Typography component="h3" variant="subtitle1" sx={{ wordBreak: "break-all", fontWeight: 600 }}>
            {webhook.url}
          </Typography>
        </Stack>
        {webhook.description && (
          <Typography variant="body2" color="text.secondary">
            {webhook.description}
          </Typography>
        )}
        {webhook.disabledAt ? (
          <Alert severity="error" sx={{ my: 1 }}>
            {translate("admin.units.webhooks.disabledAt", { date: format(webhook.disabledAt) })}
          </Alert>
        ) : (
          webhook.failingSince && (
            <Alert severity="warning" sx={{ my: 1 }}>
              {translate("admin.units.webhooks.failingSince", { date: format(webhook.failingSince) })}
            </Alert>
          )
        )}
        <Box
          component="ul"
          aria-label={translate("admin.units.webhooks.events")}
          sx={{ p: 0, my: 1, display: "flex", flexWrap: "wrap", gap: 0.5 }}
        >
          {webhook.events.map((type) => (
            <Chip
              component="li"
              key={type}
              size="small"
              variant="outlined"
              label={translate(`admin.units.webhooks.eventTypes.${type}`)}
            />
          ))}
        </Box>
        <SecretField secret={webhook.secret} />
      </CardContent>
      <CardActions sx={{ flexWrap: "wrap", gap: 1, px: 2, pb: 2 }}>
        <Button size="small" onClick={onEdit}>
          {translate("admin.units.webhooks.edit")}
        </Button>
        <Button
          size="small"
          onClick={() => act("", "PUT", { enabled: !webhook.enabled }, "admin.units.webhooks.saved")}
        >
          {translate(webhook.enabled ? "admin.units.webhooks.switchOff" : "admin.units.webhooks.switchOn")}
        </Button>
        <Button
          size="small"
          disabled={!webhook.enabled}
          onClick={() => act("/ping", "POST", {}, "admin.units.webhooks.pinged")}
        >
          {translate("admin.units.webhooks.ping")}
        </Button>
        <ConfirmButton
          size="small"
          label="admin.units.webhooks.roll"
          title="admin.units.webhooks.rollTitle"
          content="admin.units.webhooks.rollConfirm"
          onConfirm={() => act("/roll-secret", "POST", {}, "admin.units.webhooks.rolled")}
        />
        <Button size="small" aria-expanded={isLogOpen} onClick={() => setLogOpen((open) => !open)}>
          {translate(isLogOpen ? "admin.units.webhooks.hideLog" : "admin.units.webhooks.showLog")}
        </Button>
        <ConfirmButton
          size="small"
          color="error"
          icon={<DeleteIcon />}
          label="admin.units.webhooks.delete"
          title="admin.units.webhooks.deleteTitle"
          content="admin.units.webhooks.deleteConfirm"
          contentTranslateOptions={{ url: webhook.url }}
          onConfirm={() => act("", "DELETE", undefined, "admin.units.webhooks.deleted")}
        />
      </CardActions>
      {isLogOpen && (
        <Box sx={{ px: 2, pb: 2 }}>
          <WebhookDeliveries unitId={unitId} webhook={webhook} version={logVersion} onSentAgain={onChanged} />
        </Box>
      )}
    </Card>
  );
};

/**
 * The unit's webhook endpoints, for its owners and superusers (the API refuses members with 403): each one's URL,
 * events, state and secret, with its actions and its delivery log.
 */
export const WebhooksPanel = () => {
  const unit = useRecordContext<Unit>();
  const { canEdit } = useUnitPermissions();
  if (!unit) return null;
  return canEdit ? <OwnersWebhooks unitId={unit.id} /> : <WebhooksSection>{null}</WebhooksSection>;
};

const WebhooksSection = ({ children }: { children: React.ReactNode }) => {
  const translate = useTranslate();
  const headingId = useId();
  return (
    // Never wider than the screen (less the page's margin): the delivery log's table scrolls inside its card on a phone.
    <Box
      component="section"
      aria-labelledby={headingId}
      sx={{ p: 2, boxSizing: "border-box", minWidth: 0, maxWidth: "min(960px, calc(100vw - 16px))" }}
    >
      <Typography variant="h6" component="h2" id={headingId} gutterBottom>
        {translate("admin.units.webhooks.title")}
      </Typography>
      {children ?? <Typography variant="body2">{translate("admin.units.webhooks.ownersOnly")}</Typography>}
    </Box>
  );
};

const OwnersWebhooks = ({ unitId }: { unitId: Unit["id"] }) => {
  const translate = useTranslate();
  const { webhooks, loadError, load } = useWebhooks(unitId);
  const [editing, setEditing] = useState<Webhook | "new" | null>(null);
  return (
    <WebhooksSection>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {translate("admin.units.webhooks.intro")}
      </Typography>
      {loadError && <Alert severity="error">{translate(loadError, { _: loadError })}</Alert>}
      {webhooks && webhooks.length === 0 && (
        <Typography variant="body2" sx={{ my: 1 }}>
          {translate("admin.units.webhooks.none")}
        </Typography>
      )}
      <Stack component="ul" spacing={2} sx={{ p: 0, my: 2 }}>
        {webhooks?.map((webhook) => (
          <EndpointCard
            key={webhook.id}
            unitId={unitId}
            webhook={webhook}
            onChanged={load}
            onEdit={() => setEditing(webhook)}
          />
        ))}
      </Stack>
      <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
        {translate("admin.units.webhooks.add")}
      </Button>
      {editing && (
        <WebhookDialog
          unitId={unitId}
          webhook={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            await load();
          }}
        />
      )}
    </WebhooksSection>
  );
};
