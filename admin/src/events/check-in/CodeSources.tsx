// The three ways a ticket's code reaches the door: the camera, a photo (phones whose browser refuses the page a
// camera, on a plain http address), and the code typed from the ticket.
import AddAPhotoIcon from "@mui/icons-material/AddAPhoto";
import VideocamIcon from "@mui/icons-material/Videocam";
import VideocamOffIcon from "@mui/icons-material/VideocamOff";
import { Alert, Box, Button, CircularProgress, TextField } from "@mui/material";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslate } from "react-admin";
import { FileButton } from "../../widgets/FileButton.tsx";
import { normaliseCode } from "./checkInResult.ts";
import { canUseCamera, readQrFromImage, scanWithCamera } from "./qrReader.ts";

const errorText = (error: unknown) =>
  error instanceof Error ? error.message || error.name : typeof error === "string" ? error : "";

/**
 * The camera, started and stopped by the staff (it asks the browser's permission): every code it reads goes to
 * `onCode`, which decides whether to send it. Stopped when the page goes.
 */
export const CameraScanner = ({ onCode }: { onCode: (code: string) => void }) => {
  const translate = useTranslate();
  const video = useRef<HTMLVideoElement>(null);
  const stopCamera = useRef<(() => void) | null>(null);
  const mounted = useRef(true);
  // The reader calls the latest `onCode` (the page's scan state changes between two codes).
  const latestOnCode = useRef(onCode);
  latestOnCode.current = onCode;
  const [state, setState] = useState<"off" | "starting" | "on">("off");
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      stopCamera.current?.();
      stopCamera.current = null;
    };
  }, []);

  if (!canUseCamera()) return <Alert severity="info">{translate("admin.checkIn.cameraUnavailable")}</Alert>;

  const start = async () => {
    if (!video.current) return;
    setFailure(null);
    setState("starting");
    try {
      const controls = await scanWithCamera(video.current, (code) => latestOnCode.current(code));
      // The page went while the browser asked for the camera: let it go at once.
      if (!mounted.current) return controls.stop();
      stopCamera.current = controls.stop;
      setState("on");
    } catch (error) {
      if (!mounted.current) return;
      setState("off");
      setFailure(translate("admin.checkIn.cameraFailed", { error: errorText(error) }));
    }
  };
  const stop = () => {
    stopCamera.current?.();
    stopCamera.current = null;
    setState("off");
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
      <Button
        variant="contained"
        size="large"
        onClick={state === "off" ? start : stop}
        disabled={state === "starting"}
        startIcon={state === "on" ? <VideocamOffIcon /> : <VideocamIcon />}
      >
        {translate(state === "on" ? "admin.checkIn.stopCamera" : "admin.checkIn.startCamera")}
      </Button>
      <Box
        component="video"
        ref={video}
        aria-label={translate("admin.checkIn.camera")}
        muted
        playsInline
        sx={{
          display: state === "off" ? "none" : "block",
          width: "100%",
          maxHeight: "50vh",
          objectFit: "cover",
          borderRadius: 1,
          bgcolor: "black",
        }}
      />
      {failure && <Alert severity="warning">{failure}</Alert>}
    </Box>
  );
};

/** A photo of the ticket (or any image of its QR code), read in the browser; its code goes to `onCode`. */
export const PhotoReader = ({ onCode }: { onCode: (code: string) => void }) => {
  const translate = useTranslate();
  const [reading, setReading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const read = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // The same photo may be chosen again: the input forgets it.
    input.value = "";
    if (!file) return;
    setFailure(null);
    setReading(true);
    try {
      const code = await readQrFromImage(file);
      if (code === null) setFailure(translate("admin.checkIn.noCodeInImage"));
      else onCode(code);
    } catch {
      setFailure(translate("admin.checkIn.imageUnreadable"));
    } finally {
      setReading(false);
    }
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
      <FileButton
        variant="outlined"
        size="large"
        disabled={reading}
        startIcon={reading ? <CircularProgress size={18} /> : <AddAPhotoIcon />}
        accept="image/*"
        onFile={(event) => void read(event.currentTarget)}
      >
        {translate(reading ? "admin.checkIn.reading" : "admin.checkIn.photo")}
      </FileButton>
      {failure && <Alert severity="warning">{failure}</Alert>}
    </Box>
  );
};

/** The code typed (or pasted) from the ticket; the field is emptied for the next one once sent. */
export const TypedCode = ({ onCode, busy }: { onCode: (code: string) => void; busy: boolean }) => {
  const translate = useTranslate();
  const [typed, setTyped] = useState("");
  const code = normaliseCode(typed);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code) return;
    onCode(code);
    setTyped("");
  };
  return (
    <Box component="form" onSubmit={submit} sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
      <TextField
        label={translate("admin.checkIn.code")}
        helperText={translate("admin.checkIn.codeHelp")}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        fullWidth
        // A code is case-sensitive base64url: no capitals, corrections or suggestions from the phone's keyboard.
        slotProps={{
          htmlInput: { autoCapitalize: "none", autoCorrect: "off", autoComplete: "off", spellCheck: false },
        }}
      />
      <Button type="submit" variant="contained" size="large" disabled={busy || !code}>
        {translate("admin.checkIn.submit")}
      </Button>
    </Box>
  );
};
