// @vitest-environment jsdom
// The points of sale an organiser writes in English and French: a new one sends both, a saved one takes its French
// later in a dialog, only what changed sent (docs/decisions/0043).
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { AdminContext, memoryStore } from "react-admin";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createI18nProvider } from "../../i18nProvider.ts";
import { jsonResponse, mockFetch, setupProviders } from "../../test-support.ts";
import { PointsOfSalePanel } from "./PointsOfSalePanel.tsx";

const DESK = {
  id: 4,
  event_id: 3,
  title: "Ticket desk",
  title_fr: "",
  description: "",
  description_fr: "",
  location: "Main gate",
  location_fr: "",
};

function renderPanel() {
  const calls = mockFetch(({ method, body }) =>
    method === "GET"
      ? jsonResponse([DESK], 200, { "Content-Range": "points-of-sale 0-0/1" })
      : jsonResponse({ ...DESK, id: method === "POST" ? 5 : 4, ...(body as object) }),
  );
  const { dataProvider, authProvider } = setupProviders({ accessToken: "a", refreshToken: "r" });
  render(
    <MemoryRouter>
      <AdminContext
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={createI18nProvider("en")}
        store={memoryStore({ locale: "en" })}
      >
        <PointsOfSalePanel eventId={3} readOnly={false} />
      </AdminContext>
    </MemoryRouter>,
  );
  return calls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the points of sale", () => {
  it("adds one with its French beside the English", async () => {
    const calls = renderPanel();
    await screen.findByText("Ticket desk");
    fireEvent.change(screen.getByLabelText(/^Point of sale \*?$/), { target: { value: "Box office" } });
    fireEvent.change(screen.getByLabelText("Point of sale (French)"), { target: { value: "Billetterie" } });
    fireEvent.click(screen.getByRole("button", { name: "Add the point of sale" }));
    await waitFor(() => expect(calls.some((call) => call.method === "POST")).toBe(true));
    expect(calls.find((call) => call.method === "POST")?.body).toMatchObject({
      title: "Box office",
      title_fr: "Billetterie",
    });
  });

  it("takes a saved one's French later, sending only that", async () => {
    const calls = renderPanel();
    fireEvent.click(await screen.findByRole("button", { name: "Edit Ticket desk" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("Missing in French: buyers who read French see the English.");
    fireEvent.change(screen.getAllByLabelText("Point of sale (French)").at(-1) as HTMLElement, {
      target: { value: "Guichet" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.some((call) => call.method === "PUT")).toBe(true));
    const put = calls.find((call) => call.method === "PUT");
    expect(put?.path).toBe("/points-of-sale/4");
    expect(put?.body).toEqual({ title_fr: "Guichet" });
  });
});
