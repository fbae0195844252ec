// @vitest-environment jsdom
// The mail preview beside a communication form: there as soon as the form is, asked for beside the page's own data
// rather than one round trip after it; while the organiser types, it asks again once typing pauses, the last preview
// staying meanwhile. The clock is the test's (fake timers): every answer of the API takes one second of it.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { Communication } from "@ticketing/shared/schemas/events";
import { AdminContext, type AuthProvider, type DataProvider, memoryStore } from "react-admin";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createI18nProvider } from "../../i18nProvider.ts";
import { OrderConfirmationCommunication } from "./CommunicationPages.tsx";

const EVENT = { id: 7, name: "Spring Gala", status: "draft", moderationStatus: "not_requested" };
/** How long each answer of the API takes, on the test's clock. */
const ROUND_TRIP_MS = 1000;

/** The API: the event, its saved texts, and a preview whose subject is the English subject, saved or changed. */
function fakeApi(saved: Partial<Communication>) {
  const previews: Partial<Communication>[] = [];
  const later = <T,>(data: T) =>
    new Promise<{ data: T }>((resolve) => setTimeout(() => resolve({ data }), ROUND_TRIP_MS));
  const dataProvider = {
    getConfig: () => later({ supportEmail: "support@example.org" }),
    getOne: (resource: string) => later(resource === "events" ? EVENT : { id: EVENT.id, ...saved }),
    previewCommunicationMail: (_id: unknown, { values }: { values: Partial<Communication> }) => {
      previews.push(values);
      const subject = values.orderConfirmationSubjectEn ?? saved.orderConfirmationSubjectEn ?? "Your tickets";
      return later({ subject, text: subject, html: `<p>${subject}</p>` });
    },
  } as unknown as DataProvider;
  return { dataProvider, previews };
}

const authProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getIdentity: async () => ({ id: 1, fullName: "Ada", isSuperuser: false }),
};

/**
 * Moves the test's clock on by `ms`, then lets what that set off run: promises, and the zero-delay timers React
 * Query and MUI schedule, which fake timers run a millisecond later (5 ms in all, against a 1,000 ms round trip).
 */
const elapse = async (ms: number) => {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  for (let i = 0; i < 5; i++) await act(() => vi.advanceTimersByTimeAsync(1));
};

const subject = () => screen.queryByTestId("mail-preview-subject")?.textContent ?? null;

function renderPage(saved: Partial<Communication>) {
  const api = fakeApi(saved);
  render(
    <MemoryRouter initialEntries={[`/events/${EVENT.id}/communication/order-confirmation`]}>
      <AdminContext
        dataProvider={api.dataProvider}
        authProvider={authProvider}
        i18nProvider={createI18nProvider("en")}
        store={memoryStore()}
      >
        <Routes>
          <Route path="/events/:id/communication/order-confirmation" element={<OrderConfirmationCommunication />} />
        </Routes>
      </AdminContext>
    </MemoryRouter>,
  );
  return api;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("the mail preview of a communication page", () => {
  it("is there as soon as the form is: asked for with the page's texts, not one round trip after them", async () => {
    const api = renderPage({ orderConfirmationSubjectEn: "Your seats, {{name}}" });
    await elapse(0);
    expect(screen.queryByLabelText("Subject (English)")).toBeNull();
    // One round trip: the saved texts and their preview arrive together.
    await elapse(ROUND_TRIP_MS);
    expect(screen.getByLabelText("Subject (English)")).toHaveProperty("value", "Your seats, {{name}}");
    expect(subject() ?? "").toContain("Your seats, {{name}}");
    await elapse(5 * ROUND_TRIP_MS);
    expect(api.previews).toEqual([{}]);
  });

  it("follows typing once it pauses, keeping the last preview meanwhile", async () => {
    const api = renderPage({ orderConfirmationSubjectEn: "Your seats" });
    await elapse(ROUND_TRIP_MS);
    const input = screen.getByLabelText("Subject (English)");
    for (const typed of ["Your gala", "Your gala seats", "Your gala seats, {{name}}"]) {
      fireEvent.change(input, { target: { value: typed } });
      await elapse(100);
    }
    expect(subject() ?? "").toContain("Your seats");
    expect(api.previews).toHaveLength(1);
    // 400 ms after the last key, one request with the change; its answer a round trip later.
    await elapse(300);
    expect(api.previews).toEqual([{}, { orderConfirmationSubjectEn: "Your gala seats, {{name}}" }]);
    expect(subject() ?? "").toContain("Your seats");
    await elapse(ROUND_TRIP_MS);
    expect(subject() ?? "").toContain("Your gala seats, {{name}}");
  });
});
