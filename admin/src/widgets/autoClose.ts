/** SPEC 9: alerts and toasts close by themselves after this long (toasts only when `isAutoClosing`). */
export const AUTO_CLOSE_MS = 5000;
