// @vitest-environment jsdom
// docs/specification.md §2.2: the tabs of Baskets, Communications, Dashboard, Edit and Settings carry a mark (a dot,
// described for screen readers) until the user first opens the view, in this tab or another; the mark goes without a
// reload.
import { act, cleanup, render, screen } from "@testing-library/react";
import type { Language } from "@ticketing/shared/constants";
import { AdminContext, type DataProvider, memoryStore, reactRouterProvider } from "react-admin";
import { afterEach, describe, expect, it } from "vitest";
import { createI18nProvider } from "../i18nProvider.ts";
import { VISITED_VIEWS_KEY } from "../layout/preferences.ts";
import { useVisitedView } from "../layout/useVisitedView.ts";
import { EventNav } from "./EventNav.tsx";

const event = { id: 7, name: "Autumn Fair", status: "draft", frontend_path: "autumn-fair" };
const dataProvider = { getOne: async () => ({ data: event }) } as unknown as DataProvider;
// react-admin's own routing (a hash router when none is around): the test's import of react-router would be another
// copy of it, whose router react-admin's hooks do not see.
const { Route, Routes } = reactRouterProvider;

/** What the settings view does on opening. */
const SettingsView = () => {
  useVisitedView("Settings");
  return null;
};

/**
 * The navigation of the stocks table (not a tracked view), where every tab shows; `openSettings` shows the settings
 * view beside it, as opening it would (its useVisitedView), re-rendering nothing else itself.
 */
function renderNav(language: Language = "en") {
  const tree = (settingsOpened: boolean) => (
    <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider(language)} store={memoryStore()}>
      <Routes>
        <Route
          path="/events/:id/stocks-table"
          element={
            <>
              <EventNav current="stocks-table" />
              {settingsOpened && <SettingsView />}
            </>
          }
        />
      </Routes>
    </AdminContext>
  );
  window.location.hash = "#/events/7/stocks-table";
  const result = render(tree(false));
  return { openSettings: () => act(() => void result.rerender(tree(true))) };
}

/** The tabs marked as not opened yet: their described links. */
const marked = (description = "Not opened yet") =>
  screen
    .queryAllByRole("link", { description })
    .map((link) => link.textContent)
    .sort();

describe("the event navigation's marks of views not opened yet", () => {
  afterEach(() => {
    cleanup();
    window.localStorage.clear();
  });

  it("marks the five tracked views for a first-time user, with a visible dot each", async () => {
    renderNav();
    await screen.findByRole("link", { name: "Settings" });
    expect(marked()).toEqual(["Baskets", "Communication", "Dashboard", "Edit", "Settings"]);
    expect(document.querySelectorAll(".MuiBadge-dot:not(.MuiBadge-invisible)")).toHaveLength(5);
  });

  it("takes a view's mark off as soon as the view is opened, without a reload", async () => {
    const { openSettings } = renderNav();
    await screen.findByRole("link", { name: "Settings" });
    openSettings();
    expect(marked()).toEqual(["Baskets", "Communication", "Dashboard", "Edit"]);
    expect(JSON.parse(window.localStorage.getItem(VISITED_VIEWS_KEY) ?? "")).toEqual(["Settings"]);
  });

  it("takes marks off when another tab opens the views", async () => {
    renderNav();
    await screen.findByRole("link", { name: "Settings" });
    window.localStorage.setItem(VISITED_VIEWS_KEY, JSON.stringify(["Edit", "Dashboard"]));
    act(() => void window.dispatchEvent(new StorageEvent("storage", { key: VISITED_VIEWS_KEY })));
    expect(marked()).toEqual(["Baskets", "Communication", "Settings"]);
    expect(document.querySelectorAll(".MuiBadge-dot:not(.MuiBadge-invisible)")).toHaveLength(3);
  });

  it("shows no mark for views opened before", async () => {
    window.localStorage.setItem(VISITED_VIEWS_KEY, JSON.stringify(["Baskets", "Communications", "Settings"]));
    renderNav();
    await screen.findByRole("link", { name: "Settings" });
    expect(marked()).toEqual(["Dashboard", "Edit"]);
  });

  it("describes the mark in French", async () => {
    renderNav("fr");
    await screen.findByRole("link", { name: "Paramètres" });
    expect(marked("Pas encore ouvert")).toHaveLength(5);
  });
});
