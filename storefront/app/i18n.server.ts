import { createInstance, type Resource } from "i18next";
import { createCookie } from "react-router";
import { LanguageDetector } from "remix-i18next/server";
import { FALLBACK_LANGUAGE, i18nOptions, LANGUAGES, type Language, loadMessages, NAMESPACE } from "./i18n";

const [en, fr] = await Promise.all([loadMessages.en(), loadMessages.fr()]);
export const resources = { en: { [NAMESPACE]: en.default }, fr: { [NAMESPACE]: fr.default } } satisfies Resource;

/** The visitor's language choice, set by the footer's language switch. */
export const languageCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

const detector = new LanguageDetector({
  supportedLanguages: [...LANGUAGES],
  fallbackLanguage: FALLBACK_LANGUAGE,
  cookie: languageCookie,
  // The whole Accept-Language list is matched (the built-in "header" step looks at its first entry only,
  // so "de-CH,fr;q=0.8" would give English).
  order: ["cookie", "custom"],
  findLocale: async (request) => request.headers.get("Accept-Language"),
});

/** Language of a request: the `lng` cookie, else Accept-Language, else English. */
export const getLanguage = (request: Request) => detector.detect(request) as Promise<Language>;

/** A translate function for messages built in actions (validation errors). */
export async function getFixedT(language: Language) {
  const i18n = createInstance();
  await i18n.init({ ...i18nOptions, lng: language, resources });
  return i18n.t;
}
