// `/events/:id/waiting-list`: the event's navigation, the preview switch (the preview's own list with
// `preview=true`), then its waiting list (WaitingListScreen).
import { Alert, Box, Typography } from "@mui/material";
import type { Event } from "@ticketing/shared/schemas/events";
import { HttpError, Title, useGetIdentity, useGetOne, useParams, useTranslate } from "react-admin";
import { EventNav } from "../EventNav.tsx";
import { usePreviewFlag } from "../sales/previewFlag.ts";
import { PreviewSwitch } from "../sales/salesEvent.tsx";
import { isRoomLockedFor } from "../waiting-room/waitingRoom.ts";
import { WaitingListScreen } from "./WaitingListScreen.tsx";

export const WaitingListPage = () => {
  const translate = useTranslate();
  const { id } = useParams<{ id: string }>();
  const eventId = Number(id);
  const isEventId = Number.isInteger(eventId) && eventId > 0;
  const { data: event, error } = useGetOne<Event>("events", { id: eventId }, { enabled: isEventId, retry: false });
  const { identity } = useGetIdentity();
  const [preview] = usePreviewFlag();
  const notFound = !isEventId || (error instanceof HttpError && error.status === 404);
  return (
    <>
      <Title title={translate("admin.waitingList.title", { name: event?.name ?? "" })} />
      <EventNav current="waiting-list" preview={preview} />
      {notFound ? (
        <Typography role="alert" sx={{ m: 2 }}>
          {translate("admin.salesPages.notFound")}
        </Typography>
      ) : (
        event && (
          <>
            <Box sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", gap: 2, px: 2, pt: 1 }}>
              <PreviewSwitch />
              {preview && (
                <Alert severity="warning" sx={{ py: 0 }}>
                  {translate("admin.waitingList.previewOn")}
                </Alert>
              )}
            </Box>
            <WaitingListScreen
              // Real and preview entries are never shown under the other's switch.
              key={String(preview)}
              eventId={eventId}
              testing={preview}
              // The same rule as the waiting room's: a closed or archived event's list is only shown, but to superusers.
              readOnly={isRoomLockedFor(event, identity)}
            />
          </>
        )
      )}
    </>
  );
};
