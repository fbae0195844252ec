// @vitest-environment jsdom
// The confirmation page's preview beside its form: a buyer's view in the language chosen, the organiser's text in
// that language, else in their other one (docs/decisions/0043), with the event's public name in that language.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { Communication } from "@ticketing/shared/schemas/events";
import { AdminContext, type AuthProvider, type DataProvider, memoryStore } from "react-admin";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { createI18nProvider } from "../../i18nProvider.ts";
import { ConfirmationPageCommunication } from "./CommunicationPages.tsx";

const EVENT = {
  id: 7,
  name: "gala-2026",
  frontendTitle: "Spring Gala",
  frontendTitleFr: "Gala de printemps",
  status: "draft",
  moderationStatus: "not_requested",
};

const authProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getIdentity: async () => ({ id: 1, fullName: "Ada", isSuperuser: false }),
};

function renderPage(saved: Partial<Communication>) {
  const dataProvider = {
    getConfig: async () => ({ data: { supportEmail: "support@example.org" } }),
    getOne: async (resource: string) => ({ data: resource === "events" ? EVENT : { id: EVENT.id, ...saved } }),
  } as unknown as DataProvider;
  render(
    <MemoryRouter initialEntries={[`/events/${EVENT.id}/communication/order-confirmation-page`]}>
      <AdminContext
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={createI18nProvider("en")}
        store={memoryStore()}
      >
        <Routes>
          <Route path="/events/:id/communication/order-confirmation-page" element={<ConfirmationPageCommunication />} />
        </Routes>
      </AdminContext>
    </MemoryRouter>,
  );
}

const organiserText = () => screen.queryAllByTestId("confirmation-preview-text").map((p) => p.textContent);

afterEach(cleanup);

describe("the confirmation page preview", () => {
  it("shows the page in English, then in French at the switch", async () => {
    renderPage({ confirmationPageTextEn: "See you at {{event}}!", confirmationPageTextFr: "À bientôt au {{event}} !" });
    expect(await screen.findByText("Thank you for your order")).toBeTruthy();
    expect(organiserText()).toEqual(["See you at Spring Gala!"]);
    fireEvent.click(screen.getByRole("button", { name: "French" }));
    expect(await screen.findByText("Merci pour votre commande")).toBeTruthy();
    expect(organiserText()).toEqual(["À bientôt au Gala de printemps !"]);
  });

  it("shows a French buyer the English text while the French is not written", async () => {
    renderPage({ confirmationPageTextEn: "See you at {{event}}!", confirmationPageTextFr: "" });
    await screen.findByText("Thank you for your order");
    fireEvent.click(screen.getByRole("button", { name: "French" }));
    expect(await screen.findByText("Merci pour votre commande")).toBeTruthy();
    expect(organiserText()).toEqual(["See you at Gala de printemps!"]);
  });
});
