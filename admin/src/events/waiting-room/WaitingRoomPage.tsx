// `/events/:id/waiting-room`: the event's navigation, then its waiting room (WaitingRoomScreen).
import { Typography } from "@mui/material";
import { Title, useTranslate } from "react-admin";
import { EventNav } from "../EventNav.tsx";
import { useOnSaleEvent } from "./useOnSaleEvent.ts";
import { WaitingRoomScreen } from "./WaitingRoomScreen.tsx";

export const WaitingRoomPage = () => {
  const translate = useTranslate();
  const { eventId, event, notFound, readOnly } = useOnSaleEvent();
  return (
    <>
      <Title title={translate("admin.waitingRoom.title", { name: event?.name ?? "" })} />
      <EventNav current="waiting-room" />
      {notFound ? (
        <Typography role="alert" sx={{ m: 2 }}>
          {translate("admin.salesPages.notFound")}
        </Typography>
      ) : (
        event && <WaitingRoomScreen eventId={eventId} readOnly={readOnly} />
      )}
    </>
  );
};
