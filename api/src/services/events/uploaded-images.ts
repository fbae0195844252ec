// Images the editor uploads for its elements (issue 4), served publicly. Their bytes are in the database, so that
// every API process serves every image (docs/decisions/0024); those stored on disk before are moved in at start.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { and, count, type Database, type Db, eq, isNull, run, schema, sql } from "@ticketing/db";
import { EVENT_IMAGE_QUOTA, IMAGE_UPLOADS_PER_HOUR, MAX_IMAGE_BYTES, megabytes } from "@ticketing/shared/images";
import type { UploadedImage } from "@ticketing/shared/schemas/catalogue";
import { parseId } from "@ticketing/shared/schemas/common";
import { conflict, invalid, notFound } from "../../lib/errors.ts";
import type { RateLimiter, RateRule } from "../../lib/rate-limit.ts";
import { assertEditable, getVisibleEvent, type User } from "../accounts/access.ts";

const UPLOADS_PER_USER: RateRule = { limit: IMAGE_UPLOADS_PER_HOUR, windowMs: 60 * 60_000 };

/**
 * Counts an upload by `user` against the hourly allowance (429 past it), before its body is read: a script
 * uploading without end is refused without its files being read at all.
 */
export const countImageUpload = (limiter: RateLimiter, user: User) =>
  limiter.hit(`image-upload:user:${user.id}`, UPLOADS_PER_USER, "errors.too_many_uploads");

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
 * here, in this order: the event, then the file (PNG, JPEG, GIF or WebP by its bytes, 5 MB at most), then the
 * event's quota (EVENT_IMAGE_QUOTA, 409), read in the transaction that stores the image so that uploads made at
 * the same time cannot pass it together.
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
    const stored = yield* run(
      tx
        .select({ count: count(), bytes: sql<number>`coalesce(sum(length(${uploadedImages.bytes})), 0)` })
        .from(uploadedImages)
        .where(eq(uploadedImages.eventId, event.id))
        .get(),
    );
    assertRoomFor(stored ?? { count: 0, bytes: 0 }, bytes.length);
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

/** Refuses an image the event's quota has no room for: its number of images, or their bytes with this one. */
function assertRoomFor(stored: { count: number; bytes: number }, imageBytes: number) {
  if (stored.count >= EVENT_IMAGE_QUOTA.count) throw conflict("errors.event_images_full", { count: stored.count });
  if (stored.bytes + imageBytes > EVENT_IMAGE_QUOTA.bytes)
    throw conflict("errors.event_images_too_heavy", {
      max: megabytes(EVENT_IMAGE_QUOTA.bytes),
      used: megabytes(stored.bytes),
    });
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
