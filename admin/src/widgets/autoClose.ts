import { useEffect, useRef } from "react";

/**
 * docs/specification.md §9: alerts and toasts close by themselves after this long (toasts only when `isAutoClosing`).
 */
export const AUTO_CLOSE_MS = 5000;

/**
 * Calls `close` AUTO_CLOSE_MS after `isAutoClosing` turns true (or the component mounts with it). The latest `close`
 * is called: a parent's new function at each render does not restart the 5000 ms.
 */
export function useAutoClose(isAutoClosing: boolean, close: () => void): void {
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    if (!isAutoClosing) return;
    const timer = setTimeout(() => closeRef.current(), AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [isAutoClosing]);
}
