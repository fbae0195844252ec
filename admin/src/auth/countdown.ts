import { useEffect, useState } from "react";
import { useBasename } from "react-admin";
import { useNavigate } from "react-router";

/** docs/specification.md §2.2: after an email verification the page counts down, then goes to the login page. */
export const REDIRECT_SECONDS = 5;

/** Whole seconds left (never below 0) of a countdown of `seconds` started at `startedAt` (ms). */
export function secondsLeft(startedAt: number, now: number, seconds: number): number {
  return Math.max(0, Math.ceil(seconds - (now - startedAt) / 1000));
}

/**
 * Counts down from `seconds` once `isRunning`, then navigates to `to` (a path of the back office,
 * like `/auth/login`). Answers the seconds left, shown on the page.
 */
export function useRedirectCountdown(isRunning: boolean, to: string, seconds = REDIRECT_SECONDS): number {
  const navigate = useNavigate();
  const basename = useBasename();
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (!isRunning) return;
    const startedAt = Date.now();
    const timer = window.setInterval(() => {
      const remaining = secondsLeft(startedAt, Date.now(), seconds);
      setLeft(remaining);
      if (remaining === 0) {
        window.clearInterval(timer);
        navigate(`${basename}${to}`, { replace: true });
      }
    }, 250);
    return () => window.clearInterval(timer);
  }, [isRunning, navigate, basename, to, seconds]);
  return left;
}
