import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { FALLBACK_LANGUAGE, i18nOptions, isLanguage, loadMessages, NAMESPACE } from "./i18n";

async function hydrate() {
  // The server chose the language (cookie, then Accept-Language) and wrote it on <html lang>.
  const lang = document.documentElement.lang;
  const language = isLanguage(lang) ? lang : FALLBACK_LANGUAGE;
  const messages = (await loadMessages[language]()).default;
  await i18next
    .use(initReactI18next)
    .init({ ...i18nOptions, lng: language, fallbackLng: false, resources: { [language]: { [NAMESPACE]: messages } } });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

hydrate().catch((error) => console.error(error));
