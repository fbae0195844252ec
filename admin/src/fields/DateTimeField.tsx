import { DateField, useLocaleState } from "react-admin";
import { intlLocaleOf } from "../i18nProvider.ts";
import { TO_THE_MINUTE } from "./dateTime.ts";

/** A date and time in the interface language (react-admin's DateField uses the browser's locale). */
export const DateTimeField = ({ source }: { source: string }) => {
  const [locale] = useLocaleState();
  return <DateField source={source} showTime locales={intlLocaleOf(locale)} options={TO_THE_MINUTE} />;
};
