// The back office's personal-data page (docs/decisions/0046), rendered as the menu opens it: the email to look up,
// in English and French; and the erasure's confirmation, which acts only on the same email typed again.
import { AdminContext, memoryStore } from "react-admin";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { createI18nProvider } from "../i18nProvider.ts";
import { setupProviders } from "../test-support.ts";
import { confirms } from "./EraseDialog.tsx";
import { PersonalDataPage } from "./PersonalDataPage.tsx";

function render(language: "en" | "fr") {
  const { dataProvider, authProvider } = setupProviders();
  return renderToString(
    <MemoryRouter>
      <AdminContext
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={createI18nProvider(language)}
        store={memoryStore({ locale: language })}
      >
        <PersonalDataPage />
      </AdminContext>
    </MemoryRouter>,
  );
}

describe("the personal-data page", () => {
  it("asks for the buyer's email, in English and in French", () => {
    const english = render("en");
    expect(english).toContain("Personal data");
    expect(english).toContain("Buyer&#x27;s email");
    expect(english).toContain("Look up");
    const french = render("fr");
    expect(french).toContain("Données personnelles");
    expect(french).toContain("E-mail de l&#x27;acheteur");
    expect(french).toContain("Rechercher");
  });

  it("confirms an erasure only with the same email, in any case and spacing", () => {
    expect(confirms("ada@example.org", " ADA@example.org ")).toBe(true);
    expect(confirms("ada@example.org", "ada@example.com")).toBe(false);
    expect(confirms("ada@example.org", "")).toBe(false);
  });
});
