// `/events/:id/waiting-room`: the event's navigation, then its waiting room (WaitingRoomScreen).
import { Typography } from "@mui/material";
import type { Event } from "@ticketing/shared/schemas/events";
import { HttpError, Title, useGetIdentity, useGetOne, useParams, useTranslate } from "react-admin";
import { EventNav } from "../EventNav.tsx";
import { WaitingRoomScreen } from "./WaitingRoomScreen.tsx";
import { isRoomLockedFor } from "./waitingRoom.ts";

export const WaitingRoomPage = () => {
  const translate = useTranslate();
  const { id } = useParams<{ id: string }>();
  const eventId = Number(id);
  const isEventId = Number.isInteger(eventId) && eventId > 0;
  const { data: event, error } = useGetOne<Event>("events", { id: eventId }, { enabled: isEventId, retry: false });
  const { identity } = useGetIdentity();
  const notFound = !isEventId || (error instanceof HttpError && error.status === 404);
  return (
    <>
      <Title title={translate("admin.waitingRoom.title", { name: event?.name ?? "" })} />
      <EventNav current="waiting-room" />
      {notFound ? (
        <Typography role="alert" sx={{ m: 2 }}>
          {translate("admin.salesPages.notFound")}
        </Typography>
      ) : (
        event && <WaitingRoomScreen eventId={eventId} readOnly={isRoomLockedFor(event, identity)} />
      )}
    </>
  );
};
