// The room live: its state, its settings, the figures of the on-sale, and the organiser's buttons.
import PauseIcon from "@mui/icons-material/Pause";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import StopIcon from "@mui/icons-material/Stop";
import { Button, Card, CardContent, Chip, Stack, Typography } from "@mui/material";
import type { WaitingRoom, WaitingRoomAction } from "@ticketing/shared/schemas/waiting-room";
import { type ReactElement, useId } from "react";
import { useLocaleState, useTranslate } from "react-admin";
import { TO_THE_MINUTE } from "../../fields/dateTime.ts";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { CountTiles } from "../../widgets/CountTiles.tsx";
import { Fact } from "../../widgets/Fact.tsx";
import { COUNT_KEYS, waitingRoomActions } from "./waitingRoom.ts";

const ACTION_ICONS: Record<WaitingRoomAction, ReactElement> = {
  "open-now": <PlayArrowIcon />,
  pause: <PauseIcon />,
  resume: <PlayArrowIcon />,
  end: <StopIcon />,
};

const STATUS_COLORS = { running: "success", paused: "warning", ended: "default" } as const;

/**
 * `room` as it was last read; `onAction` runs a button (its confirmation included), `busy` the one under way. Without
 * `onAction` (the user may only see the event) there are no buttons.
 */
export const WaitingRoomLive = ({
  room,
  busy,
  onAction,
}: {
  room: WaitingRoom;
  busy: WaitingRoomAction | null;
  onAction?: (action: WaitingRoomAction) => void;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const headingId = useId();
  const number = new Intl.NumberFormat(intlLocaleOf(locale));
  const moment = new Intl.DateTimeFormat(intlLocaleOf(locale), TO_THE_MINUTE);
  const fact = (key: string, value: string) => <Fact label={translate(`admin.waitingRoom.live.${key}`)}>{value}</Fact>;
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1, mb: 2 }}>
          <Typography id={headingId} variant="h6" component="h2" sx={{ mr: 1 }}>
            {translate("admin.waitingRoom.live.heading")}
          </Typography>
          <Chip
            size="small"
            color={STATUS_COLORS[room.status]}
            label={translate(`admin.waitingRoom.status.${room.status}`)}
          />
          {room.status !== "ended" && (
            <Chip
              size="small"
              variant="outlined"
              label={translate(room.isOpen ? "admin.waitingRoom.live.open" : "admin.waitingRoom.live.beforeOpening")}
            />
          )}
        </Stack>
        <Stack spacing={0.5} sx={{ mb: 2 }}>
          {fact("opensAt", moment.format(new Date(room.opensAt)))}
          {fact("rate", translate("admin.waitingRoom.live.perMinute", { rate: number.format(room.ratePerMinute) }))}
          {fact("admission", translate("admin.waitingRoom.live.minutes", { smart_count: room.admissionMinutes }))}
          {fact("admittedPositions", number.format(room.admittedPositions))}
        </Stack>
        <CountTiles
          keys={COUNT_KEYS}
          counts={room.counts}
          label={(key) => translate(`admin.waitingRoom.counts.${key}`)}
        />
        {room.status === "ended" && (
          <Typography variant="body2" sx={{ mt: 2 }}>
            {translate("admin.waitingRoom.live.endedNote")}
          </Typography>
        )}
        {onAction && waitingRoomActions(room).length > 0 && (
          <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: "wrap", rowGap: 1 }}>
            {waitingRoomActions(room).map((action) => (
              <Button
                key={action}
                variant={action === "end" ? "outlined" : "contained"}
                color={action === "end" ? "error" : "primary"}
                startIcon={ACTION_ICONS[action]}
                disabled={busy !== null}
                loading={busy === action}
                onClick={() => onAction(action)}
              >
                {translate(`admin.waitingRoom.actions.${action}`)}
              </Button>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
};
