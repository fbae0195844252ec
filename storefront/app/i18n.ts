// i18n set-up shared by the server and the browser; texts live in shared/src/i18n/<lng>/storefront.json.
import { LANGUAGES, type Language } from "@ticketing/shared/constants";
import type { InitOptions } from "i18next";
import type en from "../../shared/src/i18n/en/storefront.json";

export const FALLBACK_LANGUAGE: Language = "en";
export const NAMESPACE = "storefront";

/** The language check lives beside LANGUAGES in shared/; re-exported for the routes that read a language. */
export { isLanguage } from "@ticketing/shared/constants";

export const i18nOptions = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: FALLBACK_LANGUAGE,
  defaultNS: NAMESPACE,
  ns: [NAMESPACE],
  interpolation: { escapeValue: false }, // React escapes
} satisfies InitOptions;

/** Loads one language's texts; the browser bundle fetches only the language it shows. */
export const loadMessages: Record<Language, () => Promise<{ default: typeof en }>> = {
  en: () => import("../../shared/src/i18n/en/storefront.json"),
  fr: () => import("../../shared/src/i18n/fr/storefront.json"),
};

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: typeof NAMESPACE;
    resources: { storefront: typeof en };
  }
}
