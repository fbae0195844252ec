// The door's network line (docs/decisions/0048-offline-check-in.md): offline, in amber, that codes are checked on
// this device, how many scans wait to be sent and as of when the tickets sold are known; back online, that the scans
// are being sent, and what the API answered them. Nothing while online with nothing to send.

import CloudDoneIcon from "@mui/icons-material/CloudDone";
import CloudOffIcon from "@mui/icons-material/CloudOff";
import CloudSyncIcon from "@mui/icons-material/CloudSync";
import { Alert, AlertTitle, Box, Typography } from "@mui/material";
import { Button, useLocaleState, useTranslate } from "react-admin";
import { TO_THE_MINUTE } from "../../fields/dateTime.ts";
import { intlLocaleOf } from "../../i18nProvider.ts";
import type { useOfflineDoor } from "./useOfflineDoor.ts";

type Door = ReturnType<typeof useOfflineDoor>;

export const OfflineStatus = ({ door }: { door: Door }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const moment = new Intl.DateTimeFormat(intlLocaleOf(locale), TO_THE_MINUTE);
  const waitingLine =
    door.waiting > 0 ? translate("admin.checkIn.offline.waiting", { smart_count: door.waiting }) : null;
  const label = translate("admin.checkIn.offline.label");

  if (!door.online)
    return (
      <Alert severity="warning" icon={<CloudOffIcon />} role="status" aria-label={label} data-network="offline">
        <AlertTitle sx={{ fontWeight: 700 }}>{translate("admin.checkIn.offline.offline")}</AlertTitle>
        {waitingLine && (
          <Typography component="p" sx={{ fontWeight: 700, fontSize: "1.1rem" }} data-waiting={door.waiting}>
            {waitingLine}
          </Typography>
        )}
        <Typography component="p" variant="body2">
          {!door.hasKey
            ? translate("admin.checkIn.offline.noKey")
            : door.snapshotAt
              ? translate("admin.checkIn.offline.snapshot", { time: moment.format(new Date(door.snapshotAt)) })
              : translate("admin.checkIn.offline.noSnapshot")}
        </Typography>
      </Alert>
    );

  if (door.waiting > 0 || door.sending)
    return (
      <Alert
        severity={door.syncError ? "error" : "info"}
        icon={<CloudSyncIcon />}
        role="status"
        aria-label={label}
        data-network="sending"
        action={
          <Button label="admin.checkIn.offline.sendNow" onClick={() => void door.sync()} disabled={door.sending} />
        }
      >
        {waitingLine && <AlertTitle sx={{ fontWeight: 700 }}>{waitingLine}</AlertTitle>}
        <Box component="p" sx={{ m: 0 }}>
          {door.syncError
            ? translate("admin.checkIn.offline.sendFailed", { error: translate(door.syncError) })
            : translate("admin.checkIn.offline.sending")}
        </Box>
      </Alert>
    );

  if (door.summary)
    return (
      <Alert severity="success" icon={<CloudDoneIcon />} role="status" aria-label={label} data-network="sent">
        <AlertTitle sx={{ fontWeight: 700 }}>{translate("admin.checkIn.offline.allSent")}</AlertTitle>
        {translate("admin.checkIn.offline.sentResults", {
          checkedIn: door.summary.checkedIn,
          already: door.summary.already,
          refused: door.summary.refused,
          doubles: door.summary.doubles,
        })}
      </Alert>
    );
  return null;
};
