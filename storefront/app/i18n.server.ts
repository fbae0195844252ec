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

/** Plain texts remembered per translate function, at most this many (keys are the code's, but some are built). */
const PLAIN_TEXTS_MAX = 2_000;

/**
 * A text asked by its key alone (no count, no values) is looked up once per translate function: i18next copies all
 * its options into a new object for every call (getFixedT's `selectorOpts`), about 7 % of the buy page's CPU for its
 * few dozen texts. The texts never change on the server (resources loaded once, no changeLanguage), so the answer
 * for a key is always the same. The translate functions are kept per language, namespace and prefix, as asked by
 * react-i18next's useTranslation for every component rendered.
 */
function rememberPlainTexts(i18n: I18n) {
  // Typed loosely: i18next's overloads of getFixedT do not take its own arguments passed on.
  const fixedT = i18n.getFixedT.bind(i18n) as unknown as (...args: unknown[]) => (...args: unknown[]) => string;
  const made = new Map<string, TFunction>();
  i18n.getFixedT = ((
    lng: string | readonly string[] | null,
    ns?: string | readonly string[] | null,
    keyPrefix?: string,
  ) => {
    const id = JSON.stringify([lng, ns, keyPrefix]);
    const known = made.get(id);
    if (known) return known;
    const t = fixedT(lng, ns, keyPrefix);
    const texts = new Map<string, string>();
    const remembering = (key: unknown, ...rest: unknown[]) => {
      if (rest.length > 0 || typeof key !== "string") return t(key, ...rest);
      let text = texts.get(key);
      if (text === undefined) {
        if (texts.size >= PLAIN_TEXTS_MAX) texts.clear();
        text = t(key);
        texts.set(key, text);
      }
      return text;
    };
    // lng, ns and keyPrefix, which react-i18next reads on the function.
    const translate = Object.assign(remembering, t) as unknown as TFunction;
    made.set(id, translate);
    return translate;
  }) as I18n["getFixedT"];
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
      rememberPlainTexts(i18n);
      return [language, i18n] as const;
    }),
  ),
) as Record<Language, I18n>;

/** The i18next instance that renders pages in this language. */
export const i18nFor = (language: Language): I18n => instances[language];

/** A translate function for messages built in actions (validation errors). */
export const getFixedT = (language: Language): TFunction => instances[language].getFixedT(language);
