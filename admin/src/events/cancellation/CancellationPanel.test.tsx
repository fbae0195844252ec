// @vitest-environment jsdom
// Cancelling an event from its status settings, through the real data provider with only `fetch` faked: both
// messages are needed, the confirmation says what will happen before anything is sent, then the progress shows what
// is left — a failed refund retried, an order paid at a point of sale marked refunded by hand — in English and French.
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { Language } from "@ticketing/shared/constants";
import { AdminContext, memoryStore, RecordContextProvider } from "react-admin";
import { afterEach, describe, expect, it } from "vitest";
import { createI18nProvider } from "../../i18nProvider.ts";
import { jsonResponse, mockFetch, type RecordedCall, setupProviders } from "../../test-support.ts";
import { CancellationPanel } from "./CancellationPanel.tsx";

const EVENT = { id: 7, name: "Harbour Concert", status: "public", moderationStatus: "validated" };

const basket = (basketId: number, state: string, way = "provider") => ({
  basket_id: basketId,
  reference: `REF${basketId}`,
  buyer: "Grace Hopper",
  email: "grace@example.org",
  amount: 4500,
  module: way === "by_hand" ? "point_of_sale" : "stripe",
  way,
  state,
  error: state === "failed" ? "No such payment_intent" : null,
  attempts: 1,
});

const wire = (changes: Record<string, unknown> = {}) => ({
  event_id: 7,
  is_cancelled: false,
  message: null,
  message_fr: null,
  cancelled_at: null,
  orders_to_refund: 3,
  to_refund_by_hand: 1,
  refunded: 0,
  refunded_by_hand: 0,
  failed: 0,
  in_progress: 0,
  refunded_amount: 0,
  mails_queued: 0,
  is_done: false,
  baskets: [],
  ...changes,
});

const CANCELLED = wire({
  is_cancelled: true,
  message: "The hall flooded.",
  message_fr: "La salle est inondée.",
  cancelled_at: "2030-08-01T10:00:00.000Z",
  refunded: 2,
  failed: 1,
  mails_queued: 3,
  is_done: true,
  baskets: [basket(1, "refunded"), basket(2, "refunded"), basket(3, "failed"), basket(4, "by_hand", "by_hand")],
});

function renderPanel(state: ReturnType<typeof wire>, language: Language = "en") {
  let current = state;
  const calls = mockFetch((call: RecordedCall) => {
    if (call.method === "POST") current = CANCELLED;
    return jsonResponse(current, call.method === "POST" && call.path.endsWith("/cancellation") ? 201 : 200);
  });
  const { dataProvider } = setupProviders({ accessToken: "a", refreshToken: "r" });
  render(
    <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider(language)} store={memoryStore()}>
      <RecordContextProvider value={EVENT}>
        <CancellationPanel />
      </RecordContextProvider>
    </AdminContext>,
  );
  return calls;
}

afterEach(cleanup);

describe("cancelling an event in the back office", () => {
  it("asks for both messages, says what will happen, and sends only once confirmed", async () => {
    const calls = renderPanel(wire());
    await screen.findByText(/^Paid orders refunded through their payment module: 3\./);
    const section = screen.getByRole("region", { name: "Cancel this event" });
    fireEvent.click(within(section).getByRole("button", { name: "Cancel this event…" }));
    expect(within(section).getAllByText("Required")).toHaveLength(2);
    fireEvent.change(within(section).getByRole("textbox", { name: "Message to buyers (English)" }), {
      target: { value: "The hall flooded." },
    });
    fireEvent.change(within(section).getByRole("textbox", { name: "Message to buyers (French)" }), {
      target: { value: "La salle est inondée." },
    });
    fireEvent.click(within(section).getByRole("button", { name: "Cancel this event…" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("3 paid orders will be refunded through their payment module, and 1 paid");
    expect(calls.filter((call) => call.method === "POST")).toEqual([]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel the event" }));
    await screen.findByRole("region", { name: "This event is cancelled" });
    const posted = calls.filter((call) => call.method === "POST");
    expect(posted.map((call) => [call.path, call.body])).toEqual([
      ["/events/7/cancellation", { message: "The hall flooded.", message_fr: "La salle est inondée." }],
    ]);
  });

  it("shows the progress in French, retries the failed refunds and marks an order refunded by hand", async () => {
    const calls = renderPanel(CANCELLED, "fr");
    await screen.findByText("La salle est inondée.");
    const section = screen.getByRole("region", { name: "Cet événement est annulé" });
    expect(section.textContent).toContain("La salle est inondée.");
    expect(section.textContent).toContain("2 commandes payées remboursées sur 4");
    const table = within(section).getByRole("table", { name: "Commandes encore à rembourser" });
    // The refunded orders are done: only those left are listed.
    expect(within(table).getAllByRole("row")).toHaveLength(3);
    expect(table.textContent).toContain("No such payment_intent");
    fireEvent.click(within(section).getByRole("button", { name: "Relancer les remboursements en échec" }));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith("/cancellation/retry"))).toBe(true));
    // The buttons wait while the retry is on its way.
    const byHand = () => within(section).getAllByRole("button", { name: "Marquer remboursée en main propre" });
    await waitFor(() =>
      expect(byHand().map((button) => (button as HTMLButtonElement).disabled)).toEqual([false, false]),
    );
    fireEvent.click(byHand()[1] as HTMLElement);
    await waitFor(() =>
      expect(calls.map((call) => call.path)).toContain("/events/7/cancellation/baskets/4/refunded-by-hand"),
    );
  });
});
