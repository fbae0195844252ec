// @vitest-environment jsdom
// The waiting list as the organiser sees it, through the real data provider with only `fetch` faked: no list → it is
// off, and the form switches it on (the offer time in hours and minutes); a list → its settings, its counts and its
// entries, each waiting one offered by hand (the API's refusal said beside the table), one removed only once
// confirmed, filtered by state; the preview's own list; someone who may only see the event gets no button.
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { Language } from "@ticketing/shared/constants";
import { AdminContext, memoryStore } from "react-admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createI18nProvider } from "../../i18nProvider.ts";
import { jsonResponse, mockFetch, type RecordedCall, setupProviders } from "../../test-support.ts";
import { WaitingListScreen } from "./WaitingListScreen.tsx";
import { wireEntry, wireList } from "./waitingList.fixtures.ts";

const ENTRIES = [
  wireEntry(),
  wireEntry({ id: 42, position: 2, email: "grace@example.org", quantity: 1 }),
  wireEntry({
    id: 43,
    position: null,
    email: "alan@example.org",
    state: "offered",
    quantity: 3,
    offered_quantity: 2,
    offered_at: "2026-12-01T09:00:00.000Z",
    offer_expires_at: "2026-12-01T10:30:00.000Z",
  }),
  wireEntry({ id: 44, position: null, email: "edsger@example.org", state: "bought" }),
];

/** The API with one list (null: none yet, until a PUT) and its entries; `offer` answers the offer by hand. */
function renderScreen(
  list: ReturnType<typeof wireList> | null,
  {
    readOnly = false,
    testing = false,
    language = "en" as Language,
    offer = () => jsonResponse(wireEntry({ state: "offered", position: null })),
  } = {},
) {
  let current = list;
  const calls = mockFetch((call: RecordedCall) => {
    if (call.method === "GET" && call.path.endsWith("/entries")) {
      const state = call.query.get("state");
      const data = ENTRIES.filter((entry) => !state || entry.state === state);
      return jsonResponse({ data, total: data.length });
    }
    if (call.method === "GET") return current ? jsonResponse(current) : jsonResponse({ errors: ["Not found"] }, 404);
    if (call.method === "PUT") {
      current = wireList({ ...(call.body as object), counts: wireList().counts });
      return jsonResponse(current);
    }
    if (call.path.endsWith("/offer")) return offer();
    return new Response(null, { status: 204 });
  });
  const { dataProvider } = setupProviders({ accessToken: "a", refreshToken: "r" });
  render(
    <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider(language)} store={memoryStore()}>
      <WaitingListScreen eventId={7} testing={testing} readOnly={readOnly} />
    </AdminContext>,
  );
  return calls;
}

const writes = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method !== "GET").map((call) => [call.method, call.path, call.body]);

/** The figure under a label of the counts. */
const figure = (label: string) => screen.getByText(label, { selector: "dt" }).nextElementSibling?.textContent;

/** The table's rows, as their cells' text. */
const rows = () =>
  within(screen.getByRole("table"))
    .getAllByRole("row")
    .slice(1)
    .map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent));

describe("the waiting list screen", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("says the list is off and switches it on with manual offers of 2 hours 30", async () => {
    const calls = renderScreen(null);
    const switchOn = await screen.findByRole("button", { name: "Switch the waiting list on" });
    expect(screen.getByRole("heading", { name: "The waiting list is off" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Entries" })).toBeNull();
    expect((screen.getByRole("textbox", { name: "Hours" }) as HTMLInputElement).value).toBe("24");
    expect((screen.getByRole("switch", { name: "Accepting new names" }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole("radio", { name: "By hand: only when you press Offer now" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Hours" }), { target: { value: "2" } });
    fireEvent.change(screen.getByRole("textbox", { name: "Minutes" }), { target: { value: "30" } });
    fireEvent.click(switchOn);
    await screen.findByRole("heading", { name: "The list now" });
    expect(writes(calls)).toEqual([
      [
        "PUT",
        "/events/7/waiting-list",
        { accepting: true, automatic: false, offer_minutes: 150, partial_offers: false },
      ],
    ]);
    expect(screen.getByRole("button", { name: "Save the changes" })).toBeTruthy();
  });

  it("refuses an offer time under 15 minutes without asking the API", async () => {
    const calls = renderScreen(null);
    const switchOn = await screen.findByRole("button", { name: "Switch the waiting list on" });
    fireEvent.change(screen.getByRole("textbox", { name: "Hours" }), { target: { value: "0" } });
    fireEvent.change(screen.getByRole("textbox", { name: "Minutes" }), { target: { value: "10" } });
    fireEvent.click(switchOn);
    await screen.findByText("The offer time must be from 15 minutes to 14 days.");
    expect(writes(calls)).toEqual([]);
  });

  it("shows the list's settings, its counts per state and its entries in order", async () => {
    const calls = renderScreen(wireList());
    await screen.findByRole("heading", { name: "The list now" });
    expect(screen.getByText("Accepting new names", { selector: ".MuiChip-label" })).toBeTruthy();
    expect(screen.getByText("Offers by hand")).toBeTruthy();
    expect(screen.getByText("1 hour 30 minutes")).toBeTruthy();
    expect(figure("Waiting")).toBe("1,204");
    expect(figure("Offered")).toBe("3");
    expect(figure("Bought")).toBe("12");
    expect(figure("Offer lapsed")).toBe("2");
    expect(figure("Left")).toBe("1");
    expect(figure("Removed")).toBe("0");
    await screen.findByRole("table");
    expect(rows().map((row) => row.slice(0, 6))).toEqual([
      ["1", "ada@example.org", "Front row", "2", "Waiting", ""],
      ["2", "grace@example.org", "Front row", "1", "Waiting", ""],
      ["", "alan@example.org", "Front row", "3", "Offered", "2"],
      ["", "edsger@example.org", "Front row", "2", "Bought", ""],
    ]);
    // Offer now for the waiting ones only; Remove for those in line or holding an offer.
    expect(screen.getAllByRole("button", { name: /^Offer now to/ }).map((button) => button.ariaLabel)).toEqual([
      "Offer now to ada@example.org",
      "Offer now to grace@example.org",
    ]);
    expect(screen.getAllByRole("button", { name: /^Remove / }).map((button) => button.ariaLabel)).toEqual([
      "Remove ada@example.org",
      "Remove grace@example.org",
      "Remove alan@example.org",
    ]);
    const entries = calls.find((call) => call.path === "/events/7/waiting-list/entries");
    expect(Object.fromEntries(entries?.query ?? [])).toEqual({ testing: "false", page: "1", per_page: "25" });
  });

  it("offers an entry by hand, and says why when the API refuses", async () => {
    let refuse = false;
    const calls = renderScreen(wireList(), {
      offer: () =>
        refuse
          ? jsonResponse({ errors: ["Not enough stock is free to offer 1 of “Front row”"] }, 409)
          : jsonResponse(wireEntry({ state: "offered" })),
    });
    await screen.findByRole("table");
    const asked = () => calls.filter((call) => call.path === "/events/7/waiting-list/entries").length;
    const before = asked();
    fireEvent.click(screen.getByRole("button", { name: "Offer now to ada@example.org" }));
    // Done: the entries are asked again (the offered one now holds its offer).
    await waitFor(() => expect(asked()).toBeGreaterThan(before));
    expect(writes(calls)).toEqual([["POST", "/events/7/waiting-list/entries/41/offer", {}]]);
    expect(screen.queryByRole("alert")).toBeNull();
    refuse = true;
    fireEvent.click(screen.getByRole("button", { name: "Offer now to grace@example.org" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(
      "Could not offer to grace@example.org: Not enough stock is free to offer 1 of “Front row”",
    );
  });

  it("removes an entry only once the organiser confirms", async () => {
    const calls = renderScreen(wireList());
    fireEvent.click(await screen.findByRole("button", { name: "Remove grace@example.org" }));
    const dialog = await screen.findByRole("dialog", { name: "Remove this entry?" });
    expect(within(dialog).getByText(/grace@example.org is taken off the waiting list/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(writes(calls)).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Remove grace@example.org" }));
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(writes(calls)).toEqual([["DELETE", "/events/7/waiting-list/entries/42", undefined]]));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("filters the entries by state, and asks the preview's list in preview mode", async () => {
    const calls = renderScreen(wireList(), { testing: true });
    await screen.findByRole("table");
    fireEvent.mouseDown(screen.getByRole("combobox", { name: "State" }));
    fireEvent.click(await screen.findByRole("option", { name: "Offered" }));
    await waitFor(() => expect(rows().map((row) => row[1])).toEqual(["alan@example.org"]));
    const asked = calls.filter((call) => call.method === "GET").map((call) => `${call.path}?${call.query}`);
    expect(asked).toContain("/events/7/waiting-list?testing=true");
    expect(asked).toContain("/events/7/waiting-list/entries?testing=true&page=1&per_page=25&state=offered");
  });

  it("shows the list but no button and no form to someone who may only see the event", async () => {
    renderScreen(wireList(), { readOnly: true });
    await screen.findByRole("table");
    expect(screen.queryAllByRole("button", { name: /Offer now|Remove|Save|Switch/ })).toEqual([]);
    cleanup();
    renderScreen(null, { readOnly: true });
    await screen.findByText(/This event's waiting list is off/);
    expect(screen.queryAllByRole("button")).toEqual([]);
  });

  it("speaks French", async () => {
    renderScreen(wireList(), { language: "fr" });
    await screen.findByRole("button", { name: "Proposer maintenant à ada@example.org" });
    expect(screen.getByText("Offres à la main")).toBeTruthy();
    expect(screen.getByText("1 heure 30 minutes")).toBeTruthy();
    expect(figure("En attente")).toBe(new Intl.NumberFormat("fr-CH").format(1204));
    expect(screen.getByRole("columnheader", { name: "Fin de l'offre" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Enregistrer les modifications" })).toBeTruthy();
  });
});
