import { useEffect, useSyncExternalStore } from "react";
import { createVisitedViewsStore, type TrackedView } from "./preferences.ts";

/** One store for the whole tab: a view opened on one page takes its mark off the navigation shown on the same page. */
const store = createVisitedViewsStore(window.localStorage, window);

/** docs/specification.md §2.2 / §9: records that the user opened one of the tracked back-office views. */
export function useVisitedView(view: TrackedView): void {
  useEffect(() => store.markVisited(view), [view]);
}

/** The tracked views opened so far, in this tab or another; re-renders as one is opened. */
export function useVisitedViews(): readonly TrackedView[] {
  return useSyncExternalStore(store.subscribe, store.visited);
}
