import { isLanguage, LANGUAGES, type Language } from "@ticketing/shared/constants";
import polyglotI18nProvider from "ra-i18n-polyglot";
import englishMessages from "ra-language-english";
import frenchMessages from "ra-language-french";
import type { I18nProvider } from "react-admin";
// The app's own keys live in shared/ (docs/design.md §7); the shared package exports only .ts files.
import en from "../../shared/src/i18n/en/admin.json";
import fr from "../../shared/src/i18n/fr/admin.json";

/** docs/specification.md §9: the local storage key of the interface language. */
export const LANGUAGE_KEY = "language";

/** react-admin's locale as one of ours (it is always one, but its type says string). */
export const languageOf = (locale: string): Language => (isLanguage(locale) ? locale : "en");

/** docs/specification.md §1: the stored language, otherwise the browser's first supported language, otherwise en. */
export function resolveLanguage(stored: string | null, browserLanguages: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  const fromBrowser = browserLanguages.map((tag) => tag.slice(0, 2).toLowerCase()).find(isLanguage);
  return fromBrowser ?? "en";
}

export function currentLanguage(): Language {
  return resolveLanguage(window.localStorage.getItem(LANGUAGE_KEY), window.navigator.languages ?? []);
}

/** docs/specification.md §4: changing the language stores it and reloads the page. */
export function switchLanguage(language: Language): void {
  window.localStorage.setItem(LANGUAGE_KEY, language);
  window.location.reload();
}

const messages = {
  en: { ...englishMessages, ...en },
  fr: { ...frenchMessages, ...fr },
} satisfies Record<Language, object>;

export function createI18nProvider(language: Language): I18nProvider {
  return polyglotI18nProvider(
    (locale) => messages[languageOf(locale)],
    language,
    LANGUAGES.map((locale) => ({ locale, name: messages[locale].admin.language[locale] })),
  );
}

/**
 * Dates in the interface language: docs/specification.md §1's default locale en-US, French as written in Switzerland.
 */
export const INTL_LOCALES = { en: "en-US", fr: "fr-CH" } as const satisfies Record<Language, string>;

export const intlLocaleOf = (locale: string): string => INTL_LOCALES[languageOf(locale)];
