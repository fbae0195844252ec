import { Card, CardContent, Stack, Typography } from "@mui/material";
import { formatMoney } from "@ticketing/shared/money";
import { type ReactNode, useId } from "react";
import { useLocaleState, useTranslate } from "react-admin";
import { intlLocaleOf } from "../../i18nProvider.ts";

/** A titled block of the basket page; `action` sits beside its title (a button acting on the whole block). */
export const Section = ({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) => {
  const headingId = useId();
  return (
    <Card component="section" aria-labelledby={headingId} sx={{ mt: 2 }}>
      <CardContent>
        <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: "center", flexWrap: "wrap", mb: 1 }}>
          <Typography variant="h6" component="h2" id={headingId}>
            {title}
          </Typography>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
};

export const Empty = ({ text }: { text: string }) => (
  <Typography variant="body2" color="text.secondary">
    {text}
  </Typography>
);

/** Amounts in CHF and moments in the back office's language. */
export function useBasketFormat() {
  const [locale] = useLocaleState();
  const intlLocale = intlLocaleOf(locale);
  return {
    intlLocale,
    money: (cents: number) => formatMoney(cents, locale),
    date: (iso: string | null) =>
      iso ? new Intl.DateTimeFormat(intlLocale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso)) : "",
  };
}

/** The notification of a failed action: what failed, with the server's reason when it says more. */
export function useFailureText() {
  const translate = useTranslate();
  return (failedKey: string, error: unknown) => {
    const failed = translate(failedKey);
    const message = error instanceof Error && error.message ? translate(error.message, { _: error.message }) : "";
    return message && message !== failed ? `${failed}: ${message}` : failed;
  };
}
