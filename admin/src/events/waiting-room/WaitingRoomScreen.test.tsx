// @vitest-environment jsdom
// The waiting room as the organiser sees it, through the real data provider with only `fetch` faked: no room → the
// form that switches it on; a running room → its figures and Pause; a paused one → Resume; before the opening → Open
// now; End only once confirmed; someone who may only see the event gets the figures and no button.
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { Language } from "@ticketing/shared/constants";
import { AdminContext, memoryStore } from "react-admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createI18nProvider } from "../../i18nProvider.ts";
import { jsonResponse, mockFetch, type RecordedCall, setupProviders } from "../../test-support.ts";
import { WaitingRoomScreen } from "./WaitingRoomScreen.tsx";
import { wireRoom } from "./waitingRoom.fixtures.ts";

const NOW = new Date("2026-11-28T10:20:00.000Z");

/** The API with one room (null: none yet); an action answers the room it leaves. */
function renderScreen(
  room: ReturnType<typeof wireRoom> | null,
  { readOnly = false, language = "en" as Language, after = {} as Record<string, Record<string, unknown>> } = {},
) {
  const calls = mockFetch((call: RecordedCall) => {
    if (call.method === "GET") return room ? jsonResponse(room) : jsonResponse({ errors: ["Not found"] }, 404);
    if (call.method === "PUT") return jsonResponse(wireRoom({ ...(call.body as object), is_open: false }));
    const action = call.path.split("/").pop() ?? "";
    return jsonResponse(wireRoom({ ...room, ...after[action] }));
  });
  const { dataProvider } = setupProviders({ accessToken: "a", refreshToken: "r" });
  render(
    <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider(language)} store={memoryStore()}>
      <WaitingRoomScreen eventId={7} readOnly={readOnly} now={NOW} />
    </AdminContext>,
  );
  return calls;
}

const writes = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method !== "GET").map((call) => [call.method, call.path, call.body]);

/** The figure under a label of the live panel. */
const figure = (label: string) => screen.getByText(label).nextElementSibling?.textContent;

describe("the waiting room screen", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("offers to switch a room on when the event has none, starting at the next full hour with the defaults", async () => {
    const calls = renderScreen(null);
    const switchOn = await screen.findByRole("button", { name: "Switch the waiting room on" });
    expect(screen.getByRole("heading", { name: "Switch a waiting room on" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "The room live" })).toBeNull();
    expect((screen.getByRole("textbox", { name: "Buyers let in per minute" }) as HTMLInputElement).value).toBe("100");
    fireEvent.change(screen.getByRole("textbox", { name: "Buyers let in per minute" }), { target: { value: "250" } });
    fireEvent.click(switchOn);
    await screen.findByRole("heading", { name: "The room live" });
    expect(writes(calls)).toEqual([
      [
        "PUT",
        "/events/7/waiting-room",
        { opens_at: "2026-11-28T11:00:00.000Z", rate_per_minute: 250, admission_minutes: 10 },
      ],
    ]);
  });

  it("shows a running room's figures, and Pause but neither Resume nor Open now once it has opened", async () => {
    const calls = renderScreen(wireRoom(), { after: { pause: { status: "paused" } } });
    await screen.findByRole("heading", { name: "The room live" });
    expect(screen.getByText("Running")).toBeTruthy();
    expect(figure("Waiting")).toBe("1,140");
    expect(figure("Holding a basket")).toBe("95");
    expect(figure("Bought")).toBe("170");
    expect(figure("Places taken")).toBe("1,500");
    expect(screen.getByText("120 let in per minute")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Resume" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Open now" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Pause" }));
    await screen.findByRole("button", { name: "Resume" });
    expect(writes(calls)).toEqual([["POST", "/events/7/waiting-room/pause", {}]]);
    expect(screen.getByText("Paused")).toBeTruthy();
  });

  it("offers Resume for a paused room, not Pause", async () => {
    renderScreen(wireRoom({ status: "paused" }));
    await screen.findByRole("button", { name: "Resume" });
    expect(screen.queryByRole("button", { name: "Pause" })).toBeNull();
  });

  it("offers Open now before the opening, and the opening may still move; not once opened", async () => {
    renderScreen(wireRoom({ is_open: false }));
    await screen.findByRole("button", { name: "Open now" });
    expect(screen.getByText("Before the opening")).toBeTruthy();
    expect(screen.getByText("When the first buyers are let in. It can be moved until then.")).toBeTruthy();
    cleanup();
    renderScreen(wireRoom());
    await screen.findByRole("button", { name: "Pause" });
    expect(screen.getByText("The room has opened: its opening no longer moves.")).toBeTruthy();
  });

  it("ends the room only once the organiser confirms", async () => {
    const calls = renderScreen(wireRoom(), { after: { end: { status: "ended" } } });
    fireEvent.click(await screen.findByRole("button", { name: "End" }));
    const dialog = await screen.findByRole("dialog", { name: "End the waiting room?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(writes(calls)).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "End" }));
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "End" }));
    await screen.findByText("The waiting room has ended: buyers go straight to the ticket office.");
    expect(writes(calls)).toEqual([["POST", "/events/7/waiting-room/end", {}]]);
    // An ended room has no button left; a new room may be switched on.
    expect(screen.queryByRole("button", { name: /Pause|Resume|End|Save/ })).toBeNull();
    expect(screen.getByRole("button", { name: "Switch the waiting room on" })).toBeTruthy();
  });

  it("shows the figures but no button and no form to someone who may only see the event", async () => {
    renderScreen(wireRoom(), { readOnly: true });
    await screen.findByRole("heading", { name: "The room live" });
    expect(screen.queryAllByRole("button")).toEqual([]);
    cleanup();
    renderScreen(null, { readOnly: true });
    await screen.findByText("This event has no waiting room: buyers go straight to the ticket office.");
    expect(screen.queryAllByRole("button")).toEqual([]);
  });

  it("speaks French", async () => {
    renderScreen(wireRoom({ status: "paused", is_open: false }), { language: "fr" });
    await screen.findByRole("button", { name: "Reprendre" });
    expect(screen.getByRole("button", { name: "Ouvrir maintenant" })).toBeTruthy();
    expect(screen.getByText("En pause")).toBeTruthy();
    expect(figure("En attente")).toBe(new Intl.NumberFormat("fr-CH").format(1140));
  });
});
