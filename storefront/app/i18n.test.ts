import { describe, expect, it } from "vitest";
import en from "../../shared/src/i18n/en/storefront.json";
import fr from "../../shared/src/i18n/fr/storefront.json";

const entriesOf = (messages: object, prefix = ""): [string, unknown][] =>
  Object.entries(messages).flatMap(([key, value]) =>
    typeof value === "object" && value !== null ? entriesOf(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
const keysOf = (messages: object) => entriesOf(messages).map(([key]) => key);

describe("storefront translations", () => {
  it("has the same keys in English and French (docs/design.md §7)", () => {
    expect(keysOf(fr).sort()).toEqual(keysOf(en).sort());
  });

  it("has no empty text", () => {
    for (const messages of [en, fr]) {
      expect(entriesOf(messages).filter(([, text]) => typeof text !== "string" || !text.trim())).toEqual([]);
    }
  });
});
