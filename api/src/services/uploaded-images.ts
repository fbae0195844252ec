// Images the editor uploads for its elements (issue 4): stored under the data folder, served publicly.
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Database, type Db, eq, run, schema } from "@ticketing/db";
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

const uploadsOf = (dataDir: string) => join(dataDir, "uploads");

/**
 * Stores an image for a draft event the user may see (any event for a superuser). The form's fields are checked
 * here, in this order: the event, then the file (PNG, JPEG, GIF or WebP by its bytes, 5 MB at most).
 */
export async function uploadImage(
  database: Database,
  user: User,
  form: { eventId: unknown; file: unknown },
  config: { dataDir: string; supportEmail: string },
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
  const directory = uploadsOf(config.dataDir);
  mkdirSync(directory, { recursive: true });
  const name = `${randomUUID()}.${extension}`;
  writeFileSync(join(directory, name), bytes);
  const image = await database.transaction(function* (tx) {
    return yield* run(
      tx.insert(schema.uploadedImages).values({ file: name, eventId: event.id, userId: user.id }).returning().get(),
    );
  });
  return { ...image, url: `/api/v1/uploaded-images/${image.id}/file` };
}

/** A public image's bytes and media type; a private or unknown one is a 404. */
export async function readPublicImage(
  db: Db,
  id: number,
  dataDir: string,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: string }> {
  const image = await db.select().from(schema.uploadedImages).where(eq(schema.uploadedImages.id, id)).get();
  if (image?.privacyLevel !== "public") throw notFound();
  const extension = image.file.split(".").pop() ?? "";
  return {
    bytes: readFileSync(join(uploadsOf(dataDir), image.file)),
    contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
  };
}
