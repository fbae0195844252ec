// docs/specification.md §4: toasts are added and removed by id; the id is a running number, so two toasts with the same
// text are still two toasts, and closing one never closes the other.
import type { ReactNode } from "react";
import type { NotificationPayload } from "react-admin";

export type ToastType = NotificationPayload["type"];

export interface Toast {
  id: number;
  /** a translation key, or a node shown as it is */
  message: string | ReactNode;
  messageArgs?: Record<string, unknown>;
  type: ToastType;
  isAutoClosing: boolean;
}

export interface ToastList {
  toasts: readonly Toast[];
  nextId: number;
}

export const NO_TOASTS: ToastList = { toasts: [], nextId: 1 };

export const addToast = (list: ToastList, toast: Omit<Toast, "id">): ToastList => ({
  toasts: [...list.toasts, { ...toast, id: list.nextId }],
  nextId: list.nextId + 1,
});

export const removeToast = (list: ToastList, id: number): ToastList => ({
  ...list,
  toasts: list.toasts.filter((toast) => toast.id !== id),
});

/**
 * A react-admin notification as a toast: `notify(message, { isAutoClosing: false })` (the spec's word) or
 * react-admin's own `autoHideDuration: null` keep it until it is closed.
 */
export function toastOf({ message, type, notificationOptions }: NotificationPayload): Omit<Toast, "id"> {
  const isAutoClosing = notificationOptions?.isAutoClosing !== false && notificationOptions?.autoHideDuration !== null;
  return { message, messageArgs: notificationOptions?.messageArgs, type, isAutoClosing };
}
