// Reading a ticket's QR code in the browser with @zxing/browser. The library is fetched the first time the check-in
// page reads a code (a dynamic import: a chunk of its own), so no other page of the back office carries it.
import type { BrowserQRCodeReader } from "@zxing/browser";

let reader: Promise<BrowserQRCodeReader> | null = null;

function qrReader(): Promise<BrowserQRCodeReader> {
  reader ??= import("@zxing/browser").then(({ BrowserQRCodeReader }) => new BrowserQRCodeReader());
  // A failed fetch (offline for a moment) is tried again next time rather than remembered.
  reader.catch(() => {
    reader = null;
  });
  return reader;
}

/** A phone's photo is far larger than a QR code needs; decoding a smaller copy is quicker and as sure. */
const MAX_SIDE = 2000;
/** Below this, a ticket's code has too few pixels a module to be read. */
const MIN_SIDE = 300;

/**
 * The scales an image of `width` × `height` is read at, in turn: at most MAX_SIDE, then halved while at least
 * MIN_SIDE. zxing misses some codes at one size and reads them at another (about 1 ticket in 6 rendered 800 px wide
 * was read only at half that size), so a photo is not refused before a few sizes were tried.
 */
export function decodingScales(width: number, height: number): number[] {
  const longest = Math.max(width, height);
  const scales = [Math.min(1, MAX_SIDE / longest)];
  for (let scale = (scales[0] as number) / 2; longest * scale >= MIN_SIDE; scale /= 2) scales.push(scale);
  return scales;
}

/**
 * The text of the QR code in `source` (`width` × `height` pixels), read at each of `decodingScales` in turn, or
 * null when none can be read. Drawn on `canvas`, reused from one call to the next by the camera's frames.
 */
function readAtScales(
  codeReader: BrowserQRCodeReader,
  source: CanvasImageSource,
  width: number,
  height: number,
  canvas = document.createElement("canvas"),
): string | null {
  for (const scale of decodingScales(width, height)) {
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    canvas.getContext("2d", { willReadFrequently: true })?.drawImage(source, 0, 0, canvas.width, canvas.height);
    try {
      return codeReader.decodeFromCanvas(canvas).getText();
    } catch {
      // zxing throws when it finds no code, or one it cannot read (checksum, format): try the next size.
    }
  }
  return null;
}

/**
 * The text of the QR code in an image file (a photo of the ticket, a screenshot, the PDF rendered), or null when
 * none can be read. The image is drawn on a canvas (no `blob:` address, which the page's policy refuses for images).
 */
export async function readQrFromImage(file: Blob): Promise<string | null> {
  const [codeReader, bitmap] = await Promise.all([qrReader(), createImageBitmap(file)]);
  try {
    return readAtScales(codeReader, bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}

/** Whether this browser lets the page ask for a camera: only on a secure (https or localhost) page. */
export const canUseCamera = (): boolean =>
  typeof navigator !== "undefined" && typeof navigator.mediaDevices?.getUserMedia === "function";

/** How often a frame of the camera is read: often enough to feel instant, leaving the phone time for the rest. */
const FRAME_INTERVAL_MS = 150;

/**
 * Shows the back camera (the front one on a laptop) in `video` and calls `onCode` with every code it reads, until
 * the answer's `stop`. Rejects when the camera cannot be had (refused, absent, in use). Each frame is read at the
 * same sizes as a photo (`decodingScales`): zxing reads some codes only once they are smaller, and a ticket held
 * far off or close fills the frame at any size.
 */
export async function scanWithCamera(video: HTMLVideoElement, onCode: (text: string) => void) {
  const codeReader = await qrReader();
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
  try {
    video.srcObject = stream;
    await video.play();
  } catch (error) {
    stop();
    throw error;
  }
  const canvas = document.createElement("canvas");
  const readFrame = () => {
    if (stopped) return;
    if (video.readyState >= video.HAVE_CURRENT_DATA && video.videoWidth > 0) {
      const text = readAtScales(codeReader, video, video.videoWidth, video.videoHeight, canvas);
      if (text !== null) onCode(text);
    }
    timer = setTimeout(readFrame, FRAME_INTERVAL_MS);
  };
  readFrame();
  return { stop };
}
