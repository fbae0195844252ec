// The list now: whether it takes new names, how offers are made and for how long, and its entries in each state.
import { Box, Card, CardContent, Chip, Stack, Typography } from "@mui/material";
import type { WaitingList } from "@ticketing/shared/schemas/waiting-list";
import { useId } from "react";
import { useLocaleState, useTranslate } from "react-admin";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { COUNT_KEYS, hoursAndMinutes } from "./waitingList.ts";

export const WaitingListLive = ({ list }: { list: WaitingList }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const headingId = useId();
  const number = new Intl.NumberFormat(intlLocaleOf(locale));
  const { hours, minutes } = hoursAndMinutes(list.offerMinutes);
  const offerTime = [
    hours > 0 ? translate("admin.waitingList.summary.hours", { smart_count: hours }) : "",
    minutes > 0 || hours === 0 ? translate("admin.waitingList.summary.minutes", { smart_count: minutes }) : "",
  ]
    .filter(Boolean)
    .join(" ");
  const fact = (key: string, value: string) => (
    <Typography variant="body2">
      <Box component="span" sx={{ color: "text.secondary" }}>
        {translate(`admin.waitingList.summary.${key}`)}
      </Box>{" "}
      {value}
    </Typography>
  );
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1, mb: 2 }}>
          <Typography id={headingId} variant="h6" component="h2" sx={{ mr: 1 }}>
            {translate("admin.waitingList.summary.heading")}
          </Typography>
          <Chip
            size="small"
            color={list.accepting ? "success" : "default"}
            label={translate(`admin.waitingList.summary.${list.accepting ? "accepting" : "notAccepting"}`)}
          />
          <Chip
            size="small"
            variant="outlined"
            label={translate(`admin.waitingList.summary.${list.automatic ? "automatic" : "manual"}`)}
          />
        </Stack>
        <Stack spacing={0.5} sx={{ mb: 2 }}>
          {fact("offerTime", offerTime)}
          {fact("partialOffers", translate(`admin.waitingList.summary.${list.partialOffers ? "yes" : "no"}`))}
        </Stack>
        <Box
          component="dl"
          // One row of six on a wide screen, as the waiting room's figures.
          sx={{
            display: "grid",
            gridTemplateColumns: { xs: "repeat(2, 1fr)", sm: "repeat(3, 1fr)", md: "repeat(6, 1fr)" },
            gap: 1,
            m: 0,
          }}
        >
          {COUNT_KEYS.map((key) => (
            <Box
              key={key}
              sx={{
                border: 1,
                borderColor: "divider",
                borderRadius: 1,
                p: 1.5,
                display: "flex",
                flexDirection: "column",
                justifyContent: "space-between",
              }}
            >
              <Typography component="dt" variant="body2" color="text.secondary">
                {translate(`admin.waitingList.states.${key}`)}
              </Typography>
              <Typography component="dd" variant="h5" sx={{ m: 0, fontVariantNumeric: "tabular-nums" }}>
                {number.format(list.counts[key])}
              </Typography>
            </Box>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
};
