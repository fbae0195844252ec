// `/events/:id/waiting-list`: the event's navigation, the preview switch (the preview's own list with
// `preview=true`), then its waiting list (WaitingListScreen).
import { Alert, Box, Typography } from "@mui/material";
import { Title, useTranslate } from "react-admin";
import { EventNav } from "../EventNav.tsx";
import { usePreviewFlag } from "../sales/previewFlag.ts";
import { PreviewSwitch } from "../sales/salesEvent.tsx";
import { useOnSaleEvent } from "../waiting-room/useOnSaleEvent.ts";
import { WaitingListScreen } from "./WaitingListScreen.tsx";

export const WaitingListPage = () => {
  const translate = useTranslate();
  const { eventId, event, notFound, readOnly } = useOnSaleEvent();
  const [preview] = usePreviewFlag();
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
              readOnly={readOnly}
            />
          </>
        )
      )}
    </>
  );
};
