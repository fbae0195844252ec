import { LANGUAGES, type Language } from "@ticketing/shared/constants";
import en from "@ticketing/shared/i18n/en/api.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/api.json" with { type: "json" };
import { createTranslator, type Dictionary, type Translate } from "@ticketing/shared/i18n/translate";

const dictionaries: Record<Language, Dictionary> = { en, fr };
const translators = Object.fromEntries(LANGUAGES.map((l) => [l, createTranslator(dictionaries, l)])) as Record<
  Language,
  Translate
>;

export const apiTranslator = (language: Language): Translate => translators[language];
