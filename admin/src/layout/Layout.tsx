import type { ReactNode } from "react";
import { AppBar, Layout as RaLayout, LoadingIndicator, ToggleThemeButton } from "react-admin";
import { LanguageSwitch } from "./LanguageSwitch.tsx";

const AppBarWithLanguage = () => (
  <AppBar
    toolbar={
      <>
        <LanguageSwitch />
        <ToggleThemeButton />
        <LoadingIndicator />
      </>
    }
  />
);

export const Layout = ({ children }: { children: ReactNode }) => <RaLayout appBar={AppBarWithLanguage}>{children}</RaLayout>;
