// A tiny translator for server-side texts (API messages, emails, PDF). Clients use their own i18n libraries
// over the same JSON files.
import type { Language } from "../constants.ts";

export type Dictionary = { [key: string]: string | Dictionary };
export type Translate = (key: string, values?: Record<string, string | number>) => string;

function lookup(dictionary: Dictionary, key: string): string | undefined {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** `{{name}}` placeholders are replaced by `values.name`; a missing key falls back to English, then to the key. */
export function createTranslator(dictionaries: Record<Language, Dictionary>, language: Language): Translate {
  return (key, values = {}) => {
    const text = lookup(dictionaries[language], key) ?? lookup(dictionaries.en, key) ?? key;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
      name in values ? String(values[name]) : match,
    );
  };
}

/** Picks `en` or `fr` from an Accept-Language header. */
export function languageFromHeader(header: string | null | undefined): Language {
  for (const part of (header ?? "").split(",")) {
    const tag = part.split(";")[0]?.trim().toLowerCase() ?? "";
    if (tag.startsWith("fr")) return "fr";
    if (tag.startsWith("en")) return "en";
  }
  return "en";
}

/** Every key path of a dictionary, for the "same keys in both languages" tests. */
export function keyPaths(dictionary: Dictionary, prefix = ""): string[] {
  return Object.entries(dictionary).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : keyPaths(value, `${prefix}${key}.`),
  );
}
