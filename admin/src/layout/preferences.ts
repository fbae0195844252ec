import { localStorageStore, type Store } from "react-admin";

// docs/specification.md §9: the back office keeps these preferences in local storage under their own keys (not under
// react-admin's `RaStore.` prefix), and they survive a logout (react-admin resets its store then).
export const THEME_KEY = "theme";
export const SIDEBAR_COLLAPSED_KEY = "isSidebarCollapsed";
export const VISITED_VIEWS_KEY = "hasVisitedBackOfficeViews";

/** docs/specification.md §2.2: the back-office views tracked as visited. */
export const TRACKED_VIEWS = ["Baskets", "Communications", "Dashboard", "Edit", "Settings"] as const;
export type TrackedView = (typeof TRACKED_VIEWS)[number];

type PreferenceStorage = Pick<Storage, "getItem" | "setItem">;

/** A react-admin store key kept in its own local storage key, converted both ways. */
interface Preference {
  key: string;
  read(raw: string): unknown;
  write(value: unknown): string | null;
}

const PREFERENCES: Record<string, Preference> = {
  theme: {
    key: THEME_KEY,
    read: (raw) => (raw === "dark" || raw === "light" ? raw : undefined),
    write: (value) => (value === "dark" || value === "light" ? value : null),
  },
  // react-admin stores whether the sidebar is open; docs/specification.md §9 whether it is collapsed.
  "sidebar.open": {
    key: SIDEBAR_COLLAPSED_KEY,
    read: (raw) => (raw === "true" ? false : raw === "false" ? true : undefined),
    write: (value) => (typeof value === "boolean" ? String(!value) : null),
  },
};

/**
 * react-admin's local storage store, but `theme` and `sidebar.open` live in docs/specification.md §9's keys and are
 * kept by `reset()` (called on logout).
 */
export function createPreferenceStore(
  storage: PreferenceStorage & Pick<Storage, "removeItem">,
  inner: Store = localStorageStore(undefined, "Ticketing"),
): Store {
  const listeners = new Map<string, Set<(value: unknown) => void>>();
  const publish = (key: string, value: unknown) => {
    for (const listener of listeners.get(key) ?? []) listener(value);
  };
  return {
    ...inner,
    getItem<T>(key: string, defaultValue?: T): T | undefined {
      const preference = PREFERENCES[key];
      if (!preference) return inner.getItem(key, defaultValue);
      const raw = storage.getItem(preference.key);
      const value = raw === null ? undefined : preference.read(raw);
      return value === undefined ? defaultValue : (value as T);
    },
    setItem<T>(key: string, value: T) {
      const preference = PREFERENCES[key];
      if (!preference) return inner.setItem(key, value);
      const raw = preference.write(value);
      if (raw === null) storage.removeItem(preference.key);
      else storage.setItem(preference.key, raw);
      publish(key, value);
    },
    removeItem(key: string) {
      const preference = PREFERENCES[key];
      if (!preference) return inner.removeItem(key);
      storage.removeItem(preference.key);
      publish(key, undefined);
    },
    subscribe(key: string, callback: (value: unknown) => void) {
      if (!PREFERENCES[key]) return inner.subscribe(key, callback);
      const set = listeners.get(key) ?? new Set();
      set.add(callback);
      listeners.set(key, set);
      return () => set.delete(callback);
    },
  };
}

/** The tracked views visited so far (docs/specification.md §9 `hasVisitedBackOfficeViews`, a JSON list). */
export function visitedViews(storage: Pick<Storage, "getItem">): TrackedView[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(VISITED_VIEWS_KEY) ?? "[]");
    return Array.isArray(parsed) ? TRACKED_VIEWS.filter((view) => parsed.includes(view)) : [];
  } catch {
    return [];
  }
}

/** Adds `view` to the visited views; false when it was there already. */
export function markViewVisited(storage: PreferenceStorage, view: TrackedView): boolean {
  const visited = visitedViews(storage);
  if (visited.includes(view)) return false;
  storage.setItem(VISITED_VIEWS_KEY, JSON.stringify([...visited, view]));
  return true;
}

/** The visited views as a store React can subscribe to (`useSyncExternalStore`): a mark goes as the view opens. */
export interface VisitedViewsStore {
  /** The views visited so far: the same array until the stored list changes (React compares snapshots by identity). */
  visited(): readonly TrackedView[];
  markVisited(view: TrackedView): void;
  subscribe(listener: () => void): () => void;
}

/**
 * `storage`'s visited views; `tab` is the window whose `storage` events say that another tab of the back office
 * changed them (a browser sends them to the other tabs only: this tab's own changes are told by `markVisited`).
 */
export function createVisitedViewsStore(
  storage: PreferenceStorage,
  tab: Pick<EventTarget, "addEventListener" | "removeEventListener">,
): VisitedViewsStore {
  const listeners = new Set<() => void>();
  let snapshot: { raw: string | null; views: readonly TrackedView[] } | undefined;
  return {
    visited() {
      const raw = storage.getItem(VISITED_VIEWS_KEY);
      if (snapshot?.raw !== raw) snapshot = { raw, views: visitedViews(storage) };
      return snapshot.views;
    },
    markVisited(view) {
      if (!markViewVisited(storage, view)) return;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      // `key` is null when the other tab cleared the whole storage.
      const onStorage = (event: Event) => {
        const { key } = event as StorageEvent;
        if (key === VISITED_VIEWS_KEY || key === null) listener();
      };
      listeners.add(listener);
      tab.addEventListener("storage", onStorage);
      return () => {
        listeners.delete(listener);
        tab.removeEventListener("storage", onStorage);
      };
    },
  };
}
