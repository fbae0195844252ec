// Component tests render a widget inside react-admin's context with the back office's real messages, so they read
// the texts a person sees. A wrapper, so that `rerender` keeps the context; a store of its own, so that one test's
// language never reaches the next.
import { render } from "@testing-library/react";
import type { Language } from "@ticketing/shared/constants";
import type { ReactNode } from "react";
import { AdminContext, memoryStore } from "react-admin";
import { createI18nProvider } from "../i18nProvider.ts";

export function renderInAdmin(ui: ReactNode, language: Language = "en") {
  const i18nProvider = createI18nProvider(language);
  const store = memoryStore();
  return render(ui, {
    wrapper: ({ children }) => (
      <AdminContext i18nProvider={i18nProvider} store={store}>
        {children}
      </AdminContext>
    ),
  });
}
