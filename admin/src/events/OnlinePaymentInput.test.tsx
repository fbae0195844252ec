// The event's online payment choice, rendered as the Properties tab does: the select, and what the unit's Stripe
// account allows, with the way to the unit where an owner sets it.
import type { Event } from "@ticketing/shared/schemas/events";
import { AdminContext, Form, memoryStore, RecordContextProvider } from "react-admin";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { createI18nProvider } from "../i18nProvider.ts";
import { setupProviders } from "../test-support.ts";
import { OnlinePaymentInput } from "./OnlinePaymentInput.tsx";

function render(event: Pick<Event, "id" | "unitId" | "onlinePaymentModule" | "isStripeConfigured">) {
  const { dataProvider, authProvider } = setupProviders();
  return renderToString(
    <MemoryRouter>
      {/* The store knows the language already: react-admin renders nothing until it does. */}
      <AdminContext
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={createI18nProvider("en")}
        store={memoryStore({ locale: "en" })}
      >
        <RecordContextProvider value={event}>
          <Form record={event}>
            <OnlinePaymentInput readOnly={false} />
          </Form>
        </RecordContextProvider>
      </AdminContext>
    </MemoryRouter>,
  );
}

describe("the event's online payment", () => {
  it("says the unit's Stripe account is set", () => {
    const html = render({ id: 9, unitId: 4, onlinePaymentModule: "demo", isStripeConfigured: true });
    expect(html).toContain("Online payment");
    expect(html).toContain("Demo page (no money is taken)");
    expect(html).toContain("The unit&#x27;s Stripe account is set.");
    expect(html).toContain('href="/units/4"');
  });

  it("says Stripe cannot be chosen yet, with the way to the unit", () => {
    const html = render({ id: 9, unitId: 4, onlinePaymentModule: "demo", isStripeConfigured: false });
    expect(html).toContain("Stripe cannot be chosen until an owner of the unit sets it");
    expect(html).toContain("Open the unit&#x27;s settings");
    expect(html).toContain('href="/units/4"');
  });

  it("warns that an event on Stripe takes no online payment while the unit's account is not set", () => {
    const html = render({ id: 9, unitId: 4, onlinePaymentModule: "stripe", isStripeConfigured: false });
    expect(html).toContain("buyers cannot pay online until it is");
  });
});
