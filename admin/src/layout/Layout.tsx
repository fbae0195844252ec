import type { ReactNode } from "react";
import { AppBar, LoadingIndicator, Layout as RaLayout, ToggleThemeButton } from "react-admin";
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

export const Layout = ({ children }: { children: ReactNode }) => (
  <RaLayout appBar={AppBarWithLanguage}>{children}</RaLayout>
);
