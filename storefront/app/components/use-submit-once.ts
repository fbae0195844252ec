import type { FormEvent } from "react";
import { useNavigation } from "react-router";

/**
 * With JavaScript, a second click while a post is on its way would post again (two tickets, two logins):
 * the returned submit handler ignores submits until the page has settled.
 */
export function useSubmitOnce() {
  const isBusy = useNavigation().state !== "idle";
  return (event: FormEvent) => {
    if (isBusy) event.preventDefault();
  };
}
