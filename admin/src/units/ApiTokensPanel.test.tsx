// The unit's API tokens panel, rendered as the page would: owners get the list (prefix only, scopes in words, last
// use, revoked or not) and the create button; a new token is shown with the warning that it is never shown again;
// members are told only owners manage tokens.
import type { ApiToken, CreatedApiToken } from "@ticketing/shared/schemas/api-tokens";
import type { Unit } from "@ticketing/shared/schemas/units";
import type { ReactNode } from "react";
import { AdminContext, memoryStore, RecordContextProvider } from "react-admin";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { createI18nProvider } from "../i18nProvider.ts";
import { setupProviders } from "../test-support.ts";
import { ApiTokensPanel, NewToken, TokenCards, TokenTable } from "./ApiTokensPanel.tsx";

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

const TOKENS: ApiToken[] = [
  {
    id: 2,
    unitId: 4,
    name: "Door scanner",
    prefix: "tkt_Ab3dEf9h",
    scopes: ["read", "check_in"],
    createdById: 1,
    createdAt: "2026-03-01T09:00:00.000Z",
    lastUsedAt: null,
    revokedAt: null,
  },
  {
    id: 1,
    unitId: 4,
    name: "Old sync",
    prefix: "tkt_Zz9yXw8v",
    scopes: ["manage"],
    createdById: 1,
    createdAt: "2026-01-01T09:00:00.000Z",
    lastUsedAt: "2026-02-01T10:30:00.000Z",
    revokedAt: "2026-02-02T08:00:00.000Z",
  },
];

function render(node: ReactNode, unit: Unit = UNIT, language: "en" | "fr" = "en") {
  const { dataProvider, authProvider } = setupProviders();
  return renderToString(
    <MemoryRouter>
      <AdminContext
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={createI18nProvider(language)}
        store={memoryStore({ locale: language })}
      >
        <RecordContextProvider value={unit}>{node}</RecordContextProvider>
      </AdminContext>
    </MemoryRouter>,
  );
}

describe("the unit's API tokens panel", () => {
  it("offers an owner to create a token", () => {
    const html = render(<ApiTokensPanel />);
    expect(html).toContain("API tokens");
    expect(html).toContain("Create a token");
    expect(html).not.toContain("Only the unit&#x27;s owners manage its API tokens.");
  });

  it("tells a member that only owners manage tokens, without the list or the button", () => {
    const html = render(<ApiTokensPanel />, { ...UNIT, currentUserRole: "member" }, "fr");
    expect(html).toContain("Seuls les propriétaires de l&#x27;unité gèrent ses jetons d&#x27;API.");
    expect(html).not.toContain("Créer un jeton");
  });

  it("lists each token by its prefix, its scopes in words, its last use and whether it is revoked", () => {
    const html = render(<TokenTable unitId={4} tokens={TOKENS} onChange={() => undefined} />);
    expect(html).toContain("tkt_Ab3dEf9h…");
    expect(html).toContain("Read events and sales");
    expect(html).toContain("Write check-ins");
    expect(html).toContain("Manage events");
    expect(html).toContain("Never");
    expect(html).toContain("Active");
    expect(html).toContain("Revoked 02/02/2026");
    // Only a token still active can be revoked.
    expect(html.match(/aria-label="Revoke /g)).toHaveLength(1);
    const french = render(<TokenTable unitId={4} tokens={TOKENS} onChange={() => undefined} />, UNIT, "fr");
    expect(french).toContain("Lire les événements et les ventes");
    expect(french).toContain("Enregistrer les entrées");
    expect(french).toContain("Gérer les événements");
    expect(french).toContain("Révoqué le 02.02.2026");
  });

  it("on a phone, gives each token a block of its own with the same facts", () => {
    const html = render(<TokenCards unitId={4} tokens={TOKENS} onChange={() => undefined} />, UNIT, "fr");
    expect(html).toContain("tkt_Zz9yXw8v…");
    expect(html).toContain("Jamais utilisé");
    expect(html).toContain("Dernière utilisation le 01.02.2026");
    expect(html).toContain("Révoqué le 02.02.2026");
    expect(html.match(/aria-label="Révoquer /g)).toHaveLength(1);
  });

  it("shows a new token once, to copy, saying it will not be shown again", () => {
    const created: CreatedApiToken = { ...(TOKENS[0] as ApiToken), token: `tkt_${"q".repeat(43)}` };
    const html = render(<NewToken created={created} onDone={() => undefined} />);
    expect(html).toContain(created.token);
    expect(html).toContain("it will not be shown again");
    expect(html).toContain('aria-label="Copy the token"');
    expect(render(<NewToken created={created} onDone={() => undefined} />, UNIT, "fr")).toContain(
      "il ne sera plus jamais affiché",
    );
  });
});
