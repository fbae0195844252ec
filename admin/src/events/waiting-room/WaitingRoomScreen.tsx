// An event's waiting room in the back office (issue 30): the room live, asked again every few seconds while the page
// is shown, its buttons, and the form that switches it on or changes it. No room yet (the API's 404): the form only;
// an ended room: its last figures, and the form that switches a new one on.
import { Box, Typography } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { WaitingRoom, WaitingRoomAction, WaitingRoomSettings } from "@ticketing/shared/schemas/waiting-room";
import { useMemo, useState } from "react";
import { useDataProvider, useNotify, useTranslate } from "react-admin";
import { submissionErrorsOf } from "../../apiErrors.ts";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { LoadState } from "../../widgets/LoadState.tsx";
import { useConfirm } from "../../widgets/PromptDialog.tsx";
import { WaitingRoomForm } from "./WaitingRoomForm.tsx";
import { WaitingRoomLive } from "./WaitingRoomLive.tsx";
import { newRoomSettings, ROOM_REFRESH_MS, settingsOf } from "./waitingRoom.ts";

const roomKey = (eventId: number) => ["events", "waitingRoom", eventId];

/** What each button says once done. */
const ACTION_DONE: Record<WaitingRoomAction, string> = {
  "open-now": "admin.waitingRoom.done.openNow",
  pause: "admin.waitingRoom.done.pause",
  resume: "admin.waitingRoom.done.resume",
  end: "admin.waitingRoom.done.end",
};

/** The room of `eventId`, null when it has none; asked again every ROOM_REFRESH_MS while shown. */
function useWaitingRoom(eventId: number) {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  return useQuery<WaitingRoom | null>({
    queryKey: roomKey(eventId),
    queryFn: async () => (await dataProvider.getWaitingRoom(eventId)).data,
    refetchInterval: ROOM_REFRESH_MS,
    retry: false,
  });
}

/**
 * `readOnly`: the user may only see the event (no form, no buttons). `now` is when a new room's form starts from (its
 * opening defaults to the next full hour).
 */
export const WaitingRoomScreen = ({
  eventId,
  readOnly,
  now = new Date(),
}: {
  eventId: number;
  readOnly: boolean;
  now?: Date;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const { data: room, error, isPending } = useWaitingRoom(eventId);
  const [busy, setBusy] = useState<WaitingRoomAction | null>(null);
  const isNew = !room || room.status === "ended";
  // The form starts again only when the settings change, not on every refresh of the figures.
  const settingsJson = JSON.stringify(isNew ? newRoomSettings(now) : settingsOf(room));
  const settings = useMemo(() => JSON.parse(settingsJson) as WaitingRoomSettings, [settingsJson]);

  const save = async (values: WaitingRoomSettings) => {
    const { data } = await dataProvider.setWaitingRoom(eventId, values);
    queryClient.setQueryData(roomKey(eventId), data);
    notify(isNew ? "admin.waitingRoom.done.switchedOn" : "admin.waitingRoom.done.saved", { type: "success" });
  };

  const act = async (action: WaitingRoomAction) => {
    if (
      action === "end" &&
      !(await confirm({
        title: "admin.waitingRoom.endConfirm.title",
        message: "admin.waitingRoom.endConfirm.message",
        confirmLabel: "admin.waitingRoom.actions.end",
        isDangerous: true,
      }))
    )
      return;
    setBusy(action);
    try {
      const { data } = await dataProvider.actOnWaitingRoom(eventId, action);
      queryClient.setQueryData(roomKey(eventId), data);
      notify(ACTION_DONE[action], { type: "success" });
    } catch (failure) {
      notify(submissionErrorsOf(failure).message, { type: "error" });
      void queryClient.invalidateQueries({ queryKey: roomKey(eventId) });
    } finally {
      setBusy(null);
    }
  };

  if (isPending || error) return <LoadState error={error} />;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2, p: 2, maxWidth: 960 }}>
      {room ? (
        <WaitingRoomLive room={room} busy={busy} onAction={readOnly ? undefined : act} />
      ) : (
        readOnly && <Typography>{translate("admin.waitingRoom.none")}</Typography>
      )}
      {!readOnly && (
        <WaitingRoomForm
          // A new room's form does not keep what was typed for the ended one.
          key={String(isNew)}
          settings={settings}
          isNew={isNew}
          isOpeningFixed={!isNew && room?.isOpen === true}
          onSave={save}
        />
      )}
      {dialog}
    </Box>
  );
};
