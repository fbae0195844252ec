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

/** Texts remembered per translate function, at most this many (keys are the code's, but some are built). */
const REMEMBERED_TEXTS_MAX = 2_000;

/**
 * The key under which a text is remembered: the key alone, or with its options (a count, values to fill in) when
 * they are all plain values, which decide the text; null for anything else (an object or a function among them).
 */
function rememberedAs(key: unknown, rest: unknown[]): string | null {
  if (typeof key !== "string") return null;
  if (rest.length === 0) return key;
  const options = rest[0];
  if (rest.length > 1 || typeof options !== "object" || options === null || Array.isArray(options)) return null;
  for (const value of Object.values(options)) {
    const type = typeof value;
    if (type !== "string" && type !== "number" && type !== "boolean") return null;
  }
  return `${key}\u0000${JSON.stringify(options)}`;
}

/**
 * A text is looked up once per translate function for its key and plain options: i18next copies all its options
 * into a new object for every call (getFixedT's `selectorOpts`), then resolves, pluralises and fills it in: about
 * 7 % of the buy page's CPU for its plain texts, and a sixth more for those with a count or values (a price, stock
 * left). The texts never change on the server (resources loaded once, no changeLanguage), so the answer for a key
 * and the same values is always the same. The translate functions are kept per language, namespace and prefix, as asked by react-i18next's
 * useTranslation for every component rendered.
 */
function rememberTexts(i18n: I18n) {
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
      const id = rememberedAs(key, rest);
      if (id === null) return t(key, ...rest);
      let text = texts.get(id);
      if (text === undefined) {
        const answer = t(key, ...rest);
        // `returnObjects` and the like answer more than a text: not kept, as nothing may change what was answered.
        if (typeof answer !== "string") return answer;
        if (texts.size >= REMEMBERED_TEXTS_MAX) texts.clear();
        text = answer;
        texts.set(id, text);
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
      rememberTexts(i18n);
      return [language, i18n] as const;
    }),
  ),
) as Record<Language, I18n>;

/** The i18next instance that renders pages in this language. */
export const i18nFor = (language: Language): I18n => instances[language];

/** A translate function for messages built in actions (validation errors). */
export const getFixedT = (language: Language): TFunction => instances[language].getFixedT(language);
