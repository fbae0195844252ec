import { memoryStore } from "react-admin";
import { describe, expect, it, vi } from "vitest";
import {
  createPreferenceStore,
  createVisitedViewsStore,
  markViewVisited,
  SIDEBAR_COLLAPSED_KEY,
  THEME_KEY,
  VISITED_VIEWS_KEY,
  visitedViews,
} from "./preferences.ts";

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe("createPreferenceStore", () => {
  it("keeps the theme under the local storage key theme", () => {
    const storage = memoryStorage();
    const store = createPreferenceStore(storage, memoryStore());
    expect(store.getItem("theme", "light")).toBe("light");
    store.setItem("theme", "dark");
    expect(storage.items.get(THEME_KEY)).toBe("dark");
    expect(store.getItem("theme", "light")).toBe("dark");
  });

  it("stores the sidebar as collapsed = not open", () => {
    const storage = memoryStorage({ [SIDEBAR_COLLAPSED_KEY]: "true" });
    const store = createPreferenceStore(storage, memoryStore());
    expect(store.getItem("sidebar.open", true)).toBe(false);
    store.setItem("sidebar.open", true);
    expect(storage.items.get(SIDEBAR_COLLAPSED_KEY)).toBe("false");
  });

  it("ignores a stored value it does not understand", () => {
    const store = createPreferenceStore(memoryStorage({ [THEME_KEY]: "purple" }), memoryStore());
    expect(store.getItem("theme", "light")).toBe("light");
  });

  it("tells subscribers and keeps preferences through a reset (logout)", () => {
    const storage = memoryStorage();
    const store = createPreferenceStore(storage, memoryStore());
    const listener = vi.fn();
    const unsubscribe = store.subscribe("theme", listener);
    store.setItem("theme", "dark");
    expect(listener).toHaveBeenCalledWith("dark");
    unsubscribe();
    store.setItem("events.listParams", { page: 2 });
    store.reset();
    expect(store.getItem("events.listParams")).toBeUndefined();
    expect(store.getItem("theme")).toBe("dark");
  });
});

describe("visited views", () => {
  it("records each tracked view once, as a JSON list", () => {
    const storage = memoryStorage();
    markViewVisited(storage, "Edit");
    markViewVisited(storage, "Baskets");
    markViewVisited(storage, "Edit");
    expect(JSON.parse(storage.items.get(VISITED_VIEWS_KEY) ?? "")).toEqual(["Edit", "Baskets"]);
    expect(visitedViews(storage)).toEqual(["Baskets", "Edit"]);
  });

  it("survives a corrupt value", () => {
    expect(visitedViews(memoryStorage({ [VISITED_VIEWS_KEY]: "{oops" }))).toEqual([]);
  });
});

describe("the visited views store", () => {
  it("tells its subscribers when a view is opened, once, and keeps the same list until then", () => {
    const storage = memoryStorage();
    const store = createVisitedViewsStore(storage, new EventTarget());
    const listener = vi.fn();
    store.subscribe(listener);
    const before = store.visited();
    expect(before).toEqual([]);
    expect(store.visited()).toBe(before);
    store.markVisited("Settings");
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.visited()).toEqual(["Settings"]);
    store.markVisited("Settings");
    expect(listener).toHaveBeenCalledTimes(1);
    expect(JSON.parse(storage.items.get(VISITED_VIEWS_KEY) ?? "")).toEqual(["Settings"]);
  });

  it("hears another tab's changes through the storage event, and stops when unsubscribed", () => {
    const storage = memoryStorage();
    const tab = new EventTarget();
    const store = createVisitedViewsStore(storage, tab);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const storageEvent = (key: string | null) => Object.assign(new Event("storage"), { key });
    storage.setItem(VISITED_VIEWS_KEY, JSON.stringify(["Baskets"]));
    tab.dispatchEvent(storageEvent(VISITED_VIEWS_KEY));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.visited()).toEqual(["Baskets"]);
    tab.dispatchEvent(storageEvent(THEME_KEY));
    tab.dispatchEvent(storageEvent(null)); // the other tab cleared its storage
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    tab.dispatchEvent(storageEvent(VISITED_VIEWS_KEY));
    store.markVisited("Edit");
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
