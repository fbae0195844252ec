import TranslateIcon from "@mui/icons-material/Translate";
import { Button, Menu, MenuItem } from "@mui/material";
import type { Language } from "@ticketing/shared/constants";
import { LANGUAGES } from "@ticketing/shared/constants";
import { useState } from "react";
import { useLocaleState, useTranslate } from "react-admin";
import { switchLanguage } from "../i18nProvider.ts";

/**
 * Replaces react-admin's locale menu: docs/specification.md §4 wants the choice stored under `language` and a reload.
 */
export const LanguageSwitch = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (language: Language) => {
    setAnchor(null);
    if (language !== locale) switchLanguage(language);
  };
  return (
    <>
      <Button
        color="inherit"
        startIcon={<TranslateIcon />}
        // WCAG 2.5.3 (label in name): the name says what the button is and holds the code it shows.
        aria-label={`${translate("admin.language.label")} (${locale.toUpperCase()})`}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {locale.toUpperCase()}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((language) => (
          <MenuItem key={language} lang={language} selected={language === locale} onClick={() => choose(language)}>
            {translate(`admin.language.${language}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
