import { describe, expect, it } from "vitest";
import en from "../../shared/src/i18n/en/admin.json";
import fr from "../../shared/src/i18n/fr/admin.json";
import { resolveLanguage } from "./i18nProvider.ts";

function keysOf(messages: object, prefix = ""): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === "object" && value !== null ? keysOf(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe("admin messages", () => {
  it("have the same keys in English and French (DESIGN.md 7)", () => {
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
