// Images the editor uploads for its elements (issue 4), served publicly. Their bytes are in the database, so that
// every API process serves every image (docs/decisions/0024); those stored on disk before are moved in at start.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { and, type Database, type Db, eq, isNull, run, schema } from "@ticketing/db";
import type { UploadedImage } from "@ticketing/shared/schemas/catalogue";
import { parseId } from "@ticketing/shared/schemas/common";
import { invalid, notFound } from "../lib/errors.ts";
import { assertEditable, getVisibleEvent, type User } from "./access.ts";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Recognised by their first bytes, not by what the browser claims. */
function imageExtension(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return "png";
  if (starts(0xff, 0xd8, 0xff)) return "jpg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP") return "webp";
  return null;
}

const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

const { uploadedImages } = schema;
/** An image's record, without its bytes. */
const RECORD = {
  id: uploadedImages.id,
  file: uploadedImages.file,
  uploadedAt: uploadedImages.uploadedAt,
  eventId: uploadedImages.eventId,
  frontendLoginId: uploadedImages.frontendLoginId,
  userId: uploadedImages.userId,
  privacyLevel: uploadedImages.privacyLevel,
};

/**
 * Stores an image for a draft event the user may see (any event for a superuser). The form's fields are checked
 * here, in this order: the event, then the file (PNG, JPEG, GIF or WebP by its bytes, 5 MB at most).
 */
export async function uploadImage(
  database: Database,
  user: User,
  form: { eventId: unknown; file: unknown },
  config: { supportEmail: string },
): Promise<UploadedImage> {
  const eventId = parseId(form.eventId);
  if (eventId === null) throw invalid("errors.id_invalid", { event_id: "errors.id_invalid" });
  const event = await getVisibleEvent(database.db, user, eventId);
  assertEditable(event, user, config.supportEmail);
  const { file } = form;
  if (!(file instanceof File)) throw invalid("errors.image_invalid", { file: "errors.image_invalid" });
  if (file.size > MAX_IMAGE_BYTES) throw invalid("errors.image_too_large", { file: "errors.image_too_large" });
  const bytes = new Uint8Array(await file.arrayBuffer());
  const extension = imageExtension(bytes);
  if (!extension) throw invalid("errors.image_invalid", { file: "errors.image_invalid" });
  // The name tells its media type, as the file names did when images were files.
  const name = `${randomUUID()}.${extension}`;
  const image = await database.transaction(function* (tx) {
    return yield* run(
      tx
        .insert(uploadedImages)
        .values({ file: name, bytes: Buffer.from(bytes), eventId: event.id, userId: user.id })
        .returning(RECORD)
        .get(),
    );
  });
  return { ...image, url: `/api/v1/uploaded-images/${image.id}/file` };
}

/** A public image's bytes and media type; a private or unknown one is a 404. */
export async function readPublicImage(
  db: Db,
  id: number,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: string }> {
  const image = await db
    .select({ file: uploadedImages.file, bytes: uploadedImages.bytes, privacyLevel: uploadedImages.privacyLevel })
    .from(uploadedImages)
    .where(eq(uploadedImages.id, id))
    .get();
  // No bytes: a file from before that was missing from DATA_DIR/uploads when it was moved in.
  if (image?.privacyLevel !== "public" || !image.bytes) throw notFound();
  const extension = image.file.split(".").pop() ?? "";
  const { buffer, byteOffset, byteLength } = image.bytes;
  return {
    bytes: new Uint8Array(buffer as ArrayBuffer, byteOffset, byteLength),
    contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
  };
}

/**
 * Moves the images an earlier version stored as files (`<dataDir>/uploads/<file>`) into the database; run at every
 * start, it reads the files of the images still without bytes (none once done). The files are left in place.
 */
export async function moveUploadsIntoDatabase(database: Database, dataDir: string) {
  const waiting = await database.db
    .select({ id: uploadedImages.id, file: uploadedImages.file })
    .from(uploadedImages)
    .where(isNull(uploadedImages.bytes))
    .all();
  for (const { id, file } of waiting) {
    const bytes = readUpload(join(dataDir, "uploads", file));
    if (!bytes) continue;
    await database.transaction(function* (tx) {
      yield* run(
        tx
          .update(uploadedImages)
          .set({ bytes })
          .where(and(eq(uploadedImages.id, id), isNull(uploadedImages.bytes)))
          .run(),
      );
    });
  }
}

function readUpload(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
