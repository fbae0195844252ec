// Component tests render a widget inside react-admin's context with the back office's real English messages, so
// they read the texts a person sees.
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { AdminContext } from "react-admin";
import { createI18nProvider } from "../i18nProvider.ts";

export const renderInAdmin = (ui: ReactNode) =>
  render(<AdminContext i18nProvider={createI18nProvider("en")}>{ui}</AdminContext>);
