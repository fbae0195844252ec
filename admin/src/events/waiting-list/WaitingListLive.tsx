// The list now: whether it takes new names, how offers are made and for how long, and its entries in each state.
import { Card, CardContent, Chip, Stack, Typography } from "@mui/material";
import type { WaitingList } from "@ticketing/shared/schemas/waiting-list";
import { useId } from "react";
import { useTranslate } from "react-admin";
import { CountTiles } from "../../widgets/CountTiles.tsx";
import { Fact } from "../../widgets/Fact.tsx";
import { COUNT_KEYS, hoursAndMinutes } from "./waitingList.ts";

export const WaitingListLive = ({ list }: { list: WaitingList }) => {
  const translate = useTranslate();
  const headingId = useId();
  const { hours, minutes } = hoursAndMinutes(list.offerMinutes);
  const offerTime = [
    hours > 0 ? translate("admin.waitingList.summary.hours", { smart_count: hours }) : "",
    minutes > 0 || hours === 0 ? translate("admin.waitingList.summary.minutes", { smart_count: minutes }) : "",
  ]
    .filter(Boolean)
    .join(" ");
  const fact = (key: string, value: string) => (
    <Fact label={translate(`admin.waitingList.summary.${key}`)}>{value}</Fact>
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
        <CountTiles
          keys={COUNT_KEYS}
          counts={list.counts}
          label={(key) => translate(`admin.waitingList.states.${key}`)}
        />
      </CardContent>
    </Card>
  );
};
