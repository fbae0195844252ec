import { describe, expect, it } from "vitest";
import en from "../../shared/src/i18n/en/admin.json";
import fr from "../../shared/src/i18n/fr/admin.json";
import { createI18nProvider, resolveLanguage } from "./i18nProvider.ts";

function keysOf(messages: object, prefix = ""): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === "object" && value !== null ? keysOf(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe("admin messages", () => {
  it("have the same keys in English and French (docs/design.md §7)", () => {
    expect(keysOf(fr).sort()).toEqual(keysOf(en).sort());
  });
});

describe("resolveLanguage", () => {
  it("prefers the stored language", () => {
    expect(resolveLanguage("fr", ["en-US"])).toBe("fr");
  });

  it("otherwise takes the browser's first supported language", () => {
    expect(resolveLanguage(null, ["de-CH", "fr-CH", "en"])).toBe("fr");
    expect(resolveLanguage("klingon", ["EN-gb"])).toBe("en");
  });

  it("falls back to English", () => {
    expect(resolveLanguage(null, ["de-CH", "it"])).toBe("en");
    expect(resolveLanguage(null, [])).toBe("en");
  });
});

describe("French page titles and buttons", () => {
  const { translate } = createI18nProvider("fr");

  it("read as French, with the article, not react-admin's 'Créer Événement'", () => {
    expect(translate("resources.events.page.create")).toBe("Créer un événement");
    expect(translate("resources.events.page.edit", { recordRepresentation: "Fête" })).toBe("Modifier l'événement Fête");
    expect(translate("resources.events.page.list")).toBe("Liste des événements");
    expect(translate("resources.events.action.edit")).toBe("Modifier");
    expect(translate("resources.units.page.create")).toBe("Créer une unité");
    expect(translate("resources.units.invite")).toBe("Voulez-vous en créer une ?");
  });

  it("count the moderation queue in both numbers", () => {
    expect(translate("admin.moderation.queueWaiting", { smart_count: 1 })).toBe("1 événement en attente de modération");
    expect(translate("admin.moderation.queueWaiting", { smart_count: 3 })).toBe(
      "3 événements en attente de modération",
    );
  });
});
