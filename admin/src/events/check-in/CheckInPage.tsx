// `/events/:id/check-in`: the door of an event (issue 17), made for a phone held by the staff. Each code read or typed
// is sent once (`POST /events/:id/check-ins`); the answer shows big, with the figures of the evening. Without a
// network the door decides on the device and sends its scans later (docs/decisions/0048-offline-check-in.md).
import ListIcon from "@mui/icons-material/List";
import { Alert, Box, CircularProgress, Typography } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { CheckInCounts } from "@ticketing/shared/schemas/check-ins";
import { useRef, useState } from "react";
import { Button, HttpError, LinkBase, Title, useDataProvider, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { EventNav } from "../EventNav.tsx";
import { usePreviewFlag, withPreview } from "../sales/previewFlag.ts";
import { PreviewSwitch, useSalesEvent } from "../sales/salesEvent.tsx";
import { CheckInDoubles } from "./CheckInDoubles.tsx";
import { CheckInCountsLine, CheckInPanel, type Scan } from "./CheckInPanel.tsx";
import { CameraScanner, PhotoReader, TypedCode } from "./CodeSources.tsx";
import { isNewCameraCode } from "./checkInResult.ts";
import { OfflineStatus } from "./OfflineStatus.tsx";
import { isNetworkFailure, useOfflineDoor } from "./useOfflineDoor.ts";

/** The door's figures (sold, checked in) of one mode, kept in react-admin's query cache: each scan updates them. */
const checkInCountsKey = (eventId: number, preview: boolean) => ["events", "checkInCounts", eventId, preview];

export function useCheckInCounts(eventId: number, preview: boolean) {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  return useQuery<CheckInCounts>({
    queryKey: checkInCountsKey(eventId, preview),
    queryFn: async () => (await dataProvider.getCheckInCounts(eventId, preview)).data,
    enabled: Number.isInteger(eventId) && eventId > 0,
    retry: false,
  });
}

/**
 * Sends scans one by one and keeps the last answer; a camera code is sent once while its ticket is held up. Without
 * a network (the browser offline, or the request not reaching the API) the door decides on the device and keeps the
 * scan to send later.
 */
function useDoor(eventId: number, preview: boolean) {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const queryClient = useQueryClient();
  const translate = useTranslate();
  const [scan, setScan] = useState<Scan | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Refs as well as state: the camera's reader calls back between two renders.
  const sending = useRef(false);
  const lastCameraCode = useRef<string | null>(null);
  const offline = useOfflineDoor(eventId, preview);

  const sendOffline = async (code: string) => {
    const verdict = await offline.decideOffline(code);
    if (verdict) setScan({ offline: verdict, at: new Date() });
    else {
      setScan(null);
      setFailure(translate("admin.checkIn.offline.noKey"));
    }
  };

  const send = async (code: string) => {
    sending.current = true;
    setBusy(true);
    setFailure(null);
    try {
      if (!navigator.onLine) await sendOffline(code);
      else {
        const { data } = await dataProvider.checkIn(eventId, { code, preview, deviceId: offline.deviceId });
        setScan({ result: data, at: new Date() });
        offline.keepLiveScan(code, data.ticket?.id, data.outcome);
        queryClient.setQueryData(checkInCountsKey(eventId, preview), data.counts);
      }
    } catch (error) {
      if (isNetworkFailure(error)) await sendOffline(code);
      else {
        setScan(null);
        const message = error instanceof HttpError || error instanceof Error ? error.message : "";
        setFailure(translate("admin.checkIn.scanFailed", { error: translate(message || "admin.errors.unexpected") }));
      }
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  const fromCamera = (code: string) => {
    if (!isNewCameraCode(code, lastCameraCode.current, sending.current)) return;
    lastCameraCode.current = code;
    void send(code);
  };
  /** A photo or a typed code is the staff's own choice: always sent, and the camera may send its code again. */
  const fromHand = (code: string) => {
    if (sending.current) return;
    lastCameraCode.current = null;
    void send(code);
  };
  return { scan, failure, busy, fromCamera, fromHand, offline };
}

/** The scanner of one mode (real or preview): changing mode starts a new one, its camera stopped, its answer gone. */
const Door = ({ eventId, preview }: { eventId: number; preview: boolean }) => {
  const translate = useTranslate();
  const { data: counts } = useCheckInCounts(eventId, preview);
  const { scan, failure, busy, fromCamera, fromHand, offline } = useDoor(eventId, preview);
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <CheckInCountsLine counts={counts} />
      <OfflineStatus door={offline} />
      {failure ? (
        <Alert severity="error" role="alert" variant="filled" sx={{ fontSize: "1.1rem" }}>
          {failure}
        </Alert>
      ) : (
        <CheckInPanel scan={scan} preview={preview} />
      )}
      {busy && (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          <CircularProgress size={20} />
          <Typography>{translate("admin.checkIn.checking")}</Typography>
        </Box>
      )}
      <CameraScanner onCode={fromCamera} />
      <PhotoReader onCode={fromHand} />
      <TypedCode onCode={fromHand} busy={busy} />
      <CheckInDoubles eventId={eventId} preview={preview} />
    </Box>
  );
};

export const CheckInPage = () => {
  const translate = useTranslate();
  const { eventId, name, error, basename } = useSalesEvent();
  const [preview] = usePreviewFlag();
  const notFound = !(Number.isInteger(eventId) && eventId > 0) || (error instanceof HttpError && error.status === 404);
  return (
    <Box sx={{ pb: 4 }}>
      <Title title={translate("admin.checkIn.title", { name })} />
      <EventNav current="check-in" preview={preview} />
      {notFound ? (
        <Typography role="alert" sx={{ m: 2 }}>
          {translate("admin.salesPages.notFound")}
        </Typography>
      ) : (
        <Box sx={{ maxWidth: 640, mx: "auto", mt: 2, display: "flex", flexDirection: "column", gap: 2 }}>
          <Box sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", gap: 1 }}>
            <PreviewSwitch />
            <Button
              component={LinkBase}
              to={withPreview(`${basename}/events/${eventId}/check-ins`, preview)}
              label="admin.checkIn.list"
              sx={{ ml: "auto" }}
            >
              <ListIcon />
            </Button>
          </Box>
          {preview && <Alert severity="warning">{translate("admin.checkIn.previewOn")}</Alert>}
          <Door key={String(preview)} eventId={eventId} preview={preview} />
        </Box>
      )}
    </Box>
  );
};
