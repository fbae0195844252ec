import { Alert, Stack } from "@mui/material";
import { useEffect, useState } from "react";
import { useNotificationContext, useTranslate } from "react-admin";
import { useAutoClose } from "./autoClose.ts";
import { addToast, NO_TOASTS, removeToast, type Toast, toastOf } from "./toasts.ts";

const ToastItem = ({ toast, onClose }: { toast: Toast; onClose: (id: number) => void }) => {
  const translate = useTranslate();
  useAutoClose(toast.isAutoClosing, () => onClose(toast.id));
  return (
    <Alert
      severity={toast.type}
      variant="filled"
      elevation={6}
      onClose={() => onClose(toast.id)}
      closeText={translate("ra.action.close")}
      data-toast-id={toast.id}
    >
      {typeof toast.message === "string" ? translate(toast.message, toast.messageArgs) : toast.message}
    </Alert>
  );
};

/**
 * The toasts, newest at the bottom, above the page (docs/specification.md §9: the "alerts" overlay). Each toast is an
 * alert, read out as it comes; the stack is a named region (not a status: pages have their own).
 */
const ToastStack = ({ toasts, onClose }: { toasts: readonly Toast[]; onClose: (id: number) => void }) => {
  const translate = useTranslate();
  return (
    <Stack
      role="region"
      aria-label={translate("admin.toasts.label")}
      data-overlay="alerts"
      spacing={1}
      sx={{
        position: "fixed",
        bottom: 16,
        left: 16,
        right: 16,
        zIndex: (theme) => theme.zIndex.snackbar,
        alignItems: "center",
        pointerEvents: "none",
        "& > *": { pointerEvents: "auto", maxWidth: 600, width: "100%" },
      }}
    >
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} onClose={onClose} />
      ))}
    </Stack>
  );
};

/**
 * `<Admin notification>`: every `notify(...)` of the back office becomes a toast. Several show at once (react-admin's
 * own shows one at a time). The back office saves pessimistically everywhere, so there is no undoable
 * notification to hold a mutation back.
 */
export const ToastNotifications = () => {
  const { notifications, takeNotification } = useNotificationContext();
  const [list, setList] = useState(NO_TOASTS);
  useEffect(() => {
    if (notifications.length === 0) return;
    const taken = takeNotification();
    if (taken) setList((current) => addToast(current, toastOf(taken)));
  }, [notifications, takeNotification]);
  const close = (id: number) => setList((current) => removeToast(current, id));
  return <ToastStack toasts={list.toasts} onClose={close} />;
};
