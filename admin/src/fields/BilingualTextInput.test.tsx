// @vitest-environment jsdom
// An organiser text in English and French side by side (docs/decisions/0043): both fields, the French one named
// after the English in the interface's language, its note while the French is missing; and what a form sends.
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { Language } from "@ticketing/shared/constants";
import { AdminContext, Form, memoryStore, ResourceContextProvider } from "react-admin";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EditorProvider } from "../events/editor/EditorContext.tsx";
import { ElementForm } from "../events/editor/ElementForm.tsx";
import { buildTree } from "../events/editor/tree.ts";
import { createI18nProvider } from "../i18nProvider.ts";
import { jsonResponse, mockFetch, setupProviders } from "../test-support.ts";
import { BilingualTextInput } from "./BilingualTextInput.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const MISSING_EN = "Missing in French: buyers who read French see the English.";
const MISSING_FR = "Manque en français : les acheteurs qui lisent le français voient l'anglais.";

function renderEventTitle(language: Language, record: { frontendTitle: string; frontendTitleFr: string }) {
  const { dataProvider, authProvider } = setupProviders();
  render(
    <MemoryRouter>
      <AdminContext
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={createI18nProvider(language)}
        store={memoryStore({ locale: language })}
      >
        <ResourceContextProvider value="events">
          <Form record={{ id: 3, ...record }}>
            <BilingualTextInput source="frontendTitle" />
          </Form>
        </ResourceContextProvider>
      </AdminContext>
    </MemoryRouter>,
  );
}

describe("a text in English and French", () => {
  it("shows the English and the French field, the French named after the English", async () => {
    renderEventTitle("en", { frontendTitle: "Spring Gala", frontendTitleFr: "Gala de printemps" });
    expect(await screen.findByLabelText("Public name")).toHaveProperty("value", "Spring Gala");
    expect(screen.getByLabelText("Public name (French)")).toHaveProperty("value", "Gala de printemps");
    expect(screen.queryByText(MISSING_EN)).toBeNull();
  });

  it("names them in French in the French interface", async () => {
    renderEventTitle("fr", { frontendTitle: "Spring Gala", frontendTitleFr: "" });
    expect(await screen.findByLabelText("Nom public")).toHaveProperty("value", "Spring Gala");
    expect(screen.getByLabelText("Nom public (français)")).toHaveProperty("value", "");
    expect(screen.getByText(MISSING_FR)).toBeTruthy();
  });

  it("says the French is missing while the English is written, and no more once it is", async () => {
    renderEventTitle("en", { frontendTitle: "", frontendTitleFr: "" });
    const english = await screen.findByLabelText("Public name");
    expect(screen.queryByText(MISSING_EN)).toBeNull();
    fireEvent.change(english, { target: { value: "Spring Gala" } });
    expect(await screen.findByText(MISSING_EN)).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Public name (French)"), { target: { value: "Gala de printemps" } });
    await waitFor(() => expect(screen.queryByText(MISSING_EN)).toBeNull());
  });
});

describe("an element's configuration", () => {
  const configuration = {
    id: 5,
    eventId: 3,
    category: "article",
    title: "Day pass",
    titleFr: "",
    description: "All day",
    descriptionFr: "",
    imageId: null,
    imageStyle: null,
    itemStyle: null,
    isTitleDisplayable: true,
    isImageDisplayable: true,
    isDescriptionDisplayable: true,
    isTagsDisplayable: false,
    isSubjectToLausanneTax: false,
    isRequired: false,
    maxPerBuyer: null,
  };

  it("sends the French title the organiser wrote beside the English", async () => {
    const calls = mockFetch(({ method, body }) =>
      jsonResponse(method === "PUT" ? { ...configuration, ...(body as object) } : {}),
    );
    const { dataProvider, authProvider } = setupProviders({ accessToken: "a", refreshToken: "r" });
    const nodes = [{ id: 1, parentId: null, order: 0, configurationId: 5, cartConfigurationId: 9 }];
    const root = buildTree(nodes, [configuration as never], [], 1);
    if (!root) throw new Error("no tree");
    const catalogue = Object.fromEntries(
      ["limits", "priceRules", "conditions", "availabilities", "accesses", "extraInfoGroups", "extraInfos", "tags"].map(
        (key) => [key, []],
      ),
    );
    render(
      <MemoryRouter>
        <AdminContext
          dataProvider={dataProvider}
          authProvider={authProvider}
          i18nProvider={createI18nProvider("en")}
          store={memoryStore({ locale: "en" })}
        >
          <EditorProvider
            eventId={3}
            catalogue={{ nodes, configurations: [configuration], carts: [], promotionCodes: [], ...catalogue } as never}
            readOnly={false}
            reload={() => undefined}
          >
            <ElementForm node={root} />
          </EditorProvider>
        </AdminContext>
      </MemoryRouter>,
    );
    // Title and description: both written in English only.
    expect(await screen.findAllByText(MISSING_EN)).toHaveLength(2);
    fireEvent.change(screen.getByLabelText("Element title (French)"), { target: { value: "Pass journée" } });
    fireEvent.click(screen.getByRole("button", { name: "Save the element" }));
    await waitFor(() => expect(calls.some((call) => call.method === "PUT")).toBe(true));
    const put = calls.find((call) => call.method === "PUT");
    expect(put?.path).toBe("/node-configurations/5");
    // On the wire in snake case, as the API takes it; only what changed.
    expect(put?.body).toEqual({ title_fr: "Pass journée" });
    expect(screen.getAllByText(MISSING_EN)).toHaveLength(1);
  });
});
