import { useEffect } from "react";
import { markViewVisited, type TrackedView } from "./preferences.ts";

/** SPEC 2.2 / 9: records that the user opened one of the tracked back-office views. */
export function useVisitedView(view: TrackedView): void {
  useEffect(() => markViewVisited(window.localStorage, view), [view]);
}
