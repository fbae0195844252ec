import { LANGUAGES, type Language } from "@ticketing/shared/constants";
import { createInstance, type i18n as I18n, type Resource, type TFunction } from "i18next";
import { initReactI18next } from "react-i18next";
import { createCookie } from "react-router";
import { LanguageDetector } from "remix-i18next/server";
import { FALLBACK_LANGUAGE, i18nOptions, loadMessages, NAMESPACE } from "./i18n";
import { ARE_COOKIES_SECURE } from "./lib/secure-cookies.server";

const [en, fr] = await Promise.all([loadMessages.en(), loadMessages.fr()]);
const resources = { en: { [NAMESPACE]: en.default }, fr: { [NAMESPACE]: fr.default } } satisfies Resource;

/** The visitor's language choice, set by the footer's language switch. */
export const languageCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: ARE_COOKIES_SECURE,
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

const languageByRequest = new WeakMap<Request, Promise<Language>>();

/**
 * Language of a request: the `lng` cookie, else Accept-Language, else English. Detected once per request: its
 * loaders and the document's rendering all ask (they get the request itself, react-router.config.ts).
 */
export function getLanguage(request: Request): Promise<Language> {
  let language = languageByRequest.get(request);
  if (!language) {
    language = detector.detect(request) as Promise<Language>;
    languageByRequest.set(request, language);
  }
  return language;
}

/**
 * One i18next instance per language, made and initialised once: creating one per request cost more than the
 * rest of a simple page. Each stays in its language (nothing calls changeLanguage on the server), so concurrent
 * requests in different languages share them safely; the request's language picks the instance.
 */
const instances = Object.fromEntries(
  await Promise.all(
    LANGUAGES.map(async (language) => {
      const i18n = createInstance();
      await i18n.use(initReactI18next).init({ ...i18nOptions, lng: language, resources });
      return [language, i18n] as const;
    }),
  ),
) as Record<Language, I18n>;

/** The i18next instance that renders pages in this language. */
export const i18nFor = (language: Language): I18n => instances[language];

/** A translate function for messages built in actions (validation errors). */
export const getFixedT = (language: Language): TFunction => instances[language].getFixedT(language);
