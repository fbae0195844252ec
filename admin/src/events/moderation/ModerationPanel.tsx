import FactCheckIcon from "@mui/icons-material/FactCheck";
import SendIcon from "@mui/icons-material/Send";
import ThumbUpIcon from "@mui/icons-material/ThumbUp";
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
} from "@mui/material";
import type { ModerationStatus } from "@ticketing/shared/constants";
import { canModerate } from "@ticketing/shared/event-status";
import type { Event } from "@ticketing/shared/schemas/events";
import { type FormEvent, useId, useState } from "react";
import { useDataProvider, useGetIdentity, useNotify, useRecordContext, useRefresh, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";

const CHIP_COLORS = {
  not_requested: "default",
  requested: "info",
  change_requested: "warning",
  validated: "success",
} as const satisfies Record<ModerationStatus, string>;

/** Runs one moderation call, then reloads the event; a refusal (403, 409) is notified with the API's message. */
function useModerationAction() {
  const notify = useNotify();
  const refresh = useRefresh();
  const [isPending, setPending] = useState(false);
  const run = async (call: () => Promise<unknown>, success: string): Promise<boolean> => {
    setPending(true);
    try {
      await call();
      notify(success, { type: "success" });
      refresh();
      return true;
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : "admin.errors.unexpected", { type: "error" });
      return false;
    } finally {
      setPending(false);
    }
  };
  return { run, isPending };
}

/** docs/specification.md §2.5 prompt: a required description of the changes a moderator asks for. */
const RequestChangesDialog = ({
  isOpen,
  isPending,
  onClose,
  onConfirm,
}: {
  isOpen: boolean;
  isPending: boolean;
  onClose: () => void;
  onConfirm: (description: string) => void;
}) => {
  const translate = useTranslate();
  const titleId = useId();
  const [description, setDescription] = useState("");
  const [isTouched, setTouched] = useState(false);
  const isEmpty = description.trim() === "";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!isEmpty) onConfirm(description.trim());
  };
  return (
    <Dialog open={isOpen} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{translate("admin.moderation.requestChangesTitle")}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            multiline
            minRows={3}
            fullWidth
            required
            margin="dense"
            label={translate("admin.moderation.description")}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            onBlur={() => setTouched(true)}
            error={isTouched && isEmpty}
            helperText={isTouched && isEmpty ? translate("ra.validation.required") : " "}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate("ra.action.cancel")}</Button>
          <Button type="submit" variant="contained" disabled={isPending}>
            {translate("admin.moderation.requestChanges")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

/**
 * docs/specification.md §4 / docs/design.md §4: the event's moderation status; organisers submit an event for
 * moderation (a draft, or a public event whose texts changed: ADR 0031), superusers approve it or request changes (with
 * a description, shown to the organisers).
 */
export const ModerationPanel = () => {
  const record = useRecordContext<Event>();
  const translate = useTranslate();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const { identity } = useGetIdentity();
  const { run, isPending } = useModerationAction();
  const [isPromptOpen, setPromptOpen] = useState(false);
  const headingId = useId();
  if (!record) return null;
  const { id, status, moderationStatus, moderationDescription } = record;
  const isSuperuser = identity?.isSuperuser === true;
  // A public event whose texts the moderators asked to change is submitted again, still on sale (ADR 0031).
  const canSubmit = status !== "archived" && canModerate("request", moderationStatus);
  const canDecide = isSuperuser && canModerate("approve", moderationStatus);

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ px: 2, pt: 2 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="subtitle1" component="h2" id={headingId}>
          {translate("admin.moderation.title")}
        </Typography>
        <Chip
          size="small"
          color={CHIP_COLORS[moderationStatus] ?? "default"}
          label={translate(`admin.moderationStatus.${moderationStatus}`)}
        />
        {canSubmit && (
          <Button
            size="small"
            variant="contained"
            startIcon={<SendIcon />}
            disabled={isPending}
            onClick={() => run(() => dataProvider.requestModeration(id), "admin.moderation.submitted")}
          >
            {translate("admin.moderation.submit")}
          </Button>
        )}
        {canDecide && (
          <>
            <Button
              size="small"
              variant="contained"
              color="success"
              startIcon={<ThumbUpIcon />}
              disabled={isPending}
              onClick={() => run(() => dataProvider.approveModeration(id), "admin.moderation.approved")}
            >
              {translate("admin.moderation.approve")}
            </Button>
            <Button
              size="small"
              variant="outlined"
              color="warning"
              startIcon={<FactCheckIcon />}
              disabled={isPending}
              onClick={() => setPromptOpen(true)}
            >
              {translate("admin.moderation.requestChanges")}
            </Button>
          </>
        )}
      </Box>
      {moderationStatus === "change_requested" && moderationDescription && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          <AlertTitle>{translate("admin.moderation.changesRequested")}</AlertTitle>
          <Box sx={{ whiteSpace: "pre-line" }}>{moderationDescription}</Box>
        </Alert>
      )}
      {status === "draft" && moderationStatus !== "validated" && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {translate("admin.moderation.publicNeedsValidation")}
        </Typography>
      )}
      {isPromptOpen && (
        <RequestChangesDialog
          isOpen
          isPending={isPending}
          onClose={() => setPromptOpen(false)}
          onConfirm={async (description) => {
            const isDone = await run(
              () => dataProvider.requestModerationChanges(id, description),
              "admin.moderation.changesRequestedDone",
            );
            if (isDone) setPromptOpen(false);
          }}
        />
      )}
    </Box>
  );
};
