// The unit's Stripe panel, rendered as the page would: owners (and superusers) get the webhook address and the
// secrets' form, with nothing of the secrets in it; members only learn whether the account is set.
import type { Unit } from "@ticketing/shared/schemas/units";
import { AdminContext, memoryStore, RecordContextProvider } from "react-admin";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { createI18nProvider } from "../i18nProvider.ts";
import { setupProviders } from "../test-support.ts";
import { StripePanel } from "./StripePanel.tsx";

const UNIT: Unit = {
  id: 4,
  name: "Jazz Club",
  description: "",
  email: null,
  address: null,
  iban: null,
  payoutAccountHolder: null,
  agentBaseFees: 0,
  agentFees: 0,
  createdAt: "2026-01-01T00:00:00.000Z",
  currentUserRole: "owner",
  isStripeConfigured: false,
  stripeWebhookUrl: "https://tickets.example.org/api/v1/payments/stripe/webhook/4",
};

function render(unit: Unit, language: "en" | "fr" = "en") {
  const { dataProvider, authProvider } = setupProviders();
  // A router of its own: react-admin's default one reads the browser's address.
  return renderToString(
    <MemoryRouter>
      {/* The store knows the language already: react-admin renders nothing until it does. */}
      <AdminContext
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={createI18nProvider(language)}
        store={memoryStore({ locale: language })}
      >
        <RecordContextProvider value={unit}>
          <StripePanel />
        </RecordContextProvider>
      </AdminContext>
    </MemoryRouter>,
  );
}

describe("the unit's Stripe panel", () => {
  it("gives an owner the webhook address to copy and the two secrets' password fields, empty", () => {
    const html = render(UNIT);
    expect(html).toContain("No Stripe account is set");
    expect(html).toContain(UNIT.stripeWebhookUrl);
    expect(html.match(/type="password"/g)).toHaveLength(2);
    expect(html).toContain('name="secretKey"');
    expect(html).toContain('name="webhookSecret"');
    expect(html).toContain("Save the Stripe account");
    // Nothing to remove yet.
    expect(html).not.toContain("Remove the Stripe account");
  });

  it("says when the account is set, and offers to remove it", () => {
    const html = render({ ...UNIT, isStripeConfigured: true }, "fr");
    expect(html).toContain("Le compte Stripe de l&#x27;unité est configuré");
    expect(html).toContain("Retirer le compte Stripe");
    expect(html).not.toMatch(/name="secretKey"[^>]*value="[^"]+"/);
  });

  it("shows a member whether the account is set, without the form or the webhook address", () => {
    const html = render({ ...UNIT, currentUserRole: "member", isStripeConfigured: true });
    expect(html).toContain("The unit&#x27;s Stripe account is set");
    expect(html).toContain("Only the unit&#x27;s owners can set its Stripe account.");
    expect(html).not.toContain('type="password"');
    expect(html).not.toContain(UNIT.stripeWebhookUrl);
    expect(html).not.toContain("Remove the Stripe account");
  });
});
