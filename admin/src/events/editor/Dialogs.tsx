import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from "@mui/material";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { useTranslate } from "react-admin";
import { PromptDialog } from "../../widgets/PromptDialog.tsx";

/**
 * docs/specification.md §5: delete and cancel actions need confirmation (the shared confirm dialog; texts already
 * translated).
 */
export const ConfirmDialog = ({
  title,
  message,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  title: string;
  message: string;
  confirmLabel?: string;
  onConfirm: () => Promise<unknown> | undefined;
  onClose: () => void;
}) => {
  const [isPending, setPending] = useState(false);
  return (
    <PromptDialog
      isOpen
      isPending={isPending}
      title={title}
      message={message}
      confirmLabel={confirmLabel}
      isDangerous
      onAnswer={async (answer) => {
        if (answer) {
          setPending(true);
          await onConfirm();
          setPending(false);
        }
        onClose();
      }}
    />
  );
};

/** A form in a dialog: Save submits (Enter too), Cancel closes; `extraActions` sit on the left (Delete). */
export const FormDialog = ({
  title,
  children,
  onSubmit,
  onClose,
  readOnly,
  extraActions,
  maxWidth = "sm",
}: {
  title: string;
  children: ReactNode;
  onSubmit: () => Promise<unknown>;
  onClose: () => void;
  readOnly: boolean;
  extraActions?: ReactNode;
  maxWidth?: "sm" | "md";
}) => {
  const translate = useTranslate();
  const titleId = useId();
  const [isPending, setPending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation(); // a dialog's form sits in a portal: its submit must not reach an enclosing form
    setPending(true);
    try {
      await onSubmit();
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth={maxWidth}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {children}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Stack direction="row" sx={{ flex: 1 }}>
            {extraActions}
          </Stack>
          <Button onClick={onClose}>{translate(readOnly ? "ra.action.close" : "ra.action.cancel")}</Button>
          {!readOnly && (
            <Button type="submit" variant="contained" disabled={isPending}>
              {translate("ra.action.save")}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
};
