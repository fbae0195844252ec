// The tickets scanned on two devices (docs/decisions/0048-offline-check-in.md), on the door's page and above the
// check-in list: each ticket with its first scan (the check-in) and the other device's, who held each and when.
// Nothing when there is none.
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { Alert, AlertTitle, Box, List, ListItem, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import type { CheckInDouble } from "@ticketing/shared/schemas/check-ins";
import { useDataProvider, useLocaleState, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { TO_THE_MINUTE } from "../../fields/dateTime.ts";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { deviceIdOf } from "./offlineDoor.ts";
import { doublesKey } from "./useOfflineDoor.ts";

/** A device as staff can tell it: "this device", or the start of its id; with the staff's email when known. */
export function deviceName(
  scan: CheckInDouble["first"],
  ownDevice: string | null,
  translate: (key: string, options?: Record<string, unknown>) => string,
): string {
  const device =
    scan.deviceId === null
      ? translate("admin.checkIn.doubles.device", { id: "?" })
      : scan.deviceId === ownDevice
        ? translate("admin.checkIn.doubles.thisDevice")
        : translate("admin.checkIn.doubles.device", { id: scan.deviceId.slice(0, 8) });
  return scan.byEmail ? translate("admin.checkIn.doubles.by", { device, email: scan.byEmail }) : device;
}

export const CheckInDoubles = ({ eventId, preview }: { eventId: number; preview: boolean }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [locale] = useLocaleState();
  const moment = new Intl.DateTimeFormat(intlLocaleOf(locale), TO_THE_MINUTE);
  const { data: doubles } = useQuery<CheckInDouble[]>({
    queryKey: doublesKey(eventId, preview),
    queryFn: async () => (await dataProvider.getCheckInDoubles(eventId, preview)).data,
    enabled: Number.isInteger(eventId) && eventId > 0,
    retry: false,
  });
  if (!doubles || doubles.length === 0) return null;
  const own = deviceIdOf(window.localStorage);
  const title = translate("admin.checkIn.doubles.title");
  return (
    <Box component="section" aria-label={title}>
      <Alert severity="warning" icon={<ContentCopyIcon />} role="none">
        <AlertTitle component="h2" sx={{ fontWeight: 700, fontSize: "1.1rem" }}>
          {title}
        </AlertTitle>
        <Typography variant="body2">{translate("admin.checkIn.doubles.help")}</Typography>
        <List dense disablePadding>
          {doubles.map((double) => (
            <ListItem key={double.id} disableGutters sx={{ display: "block" }}>
              <Typography component="p" sx={{ fontWeight: 600 }}>
                {translate("admin.checkIn.ticket", { title: double.title, holder: double.holderName })} ·{" "}
                {translate("admin.checkIn.reference", { reference: double.reference })}
              </Typography>
              <Box component="p" sx={{ m: 0 }}>
                {translate("admin.checkIn.doubles.first", {
                  device: deviceName(double.first, own, translate),
                  time: moment.format(new Date(double.first.at)),
                })}
              </Box>
              <Box component="p" sx={{ m: 0 }}>
                {translate("admin.checkIn.doubles.second", {
                  device: deviceName(double.second, own, translate),
                  time: moment.format(new Date(double.second.at)),
                })}
              </Box>
            </ListItem>
          ))}
        </List>
      </Alert>
    </Box>
  );
};
