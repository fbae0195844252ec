// Images the element-tree editor uploads (issue 4), and their public address.

import { EVENT_IMAGE_QUOTA, IMAGE_UPLOADS_PER_HOUR, MAX_IMAGE_BYTES, megabytes } from "@ticketing/shared/images";
import { UploadedImage } from "@ticketing/shared/schemas/catalogue";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../context.ts";
import { invalid } from "../lib/errors.ts";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { countImageUpload, readPublicImage, uploadImage } from "../services/events/uploaded-images.ts";

export const uploadedImageRoutes = new Hono<AppEnv>();

// The upload has its own limit, above the API's 1 MB (app.ts leaves this path to it).
uploadedImageRoutes.use(
  "/",
  bodyLimit({
    maxSize: MAX_IMAGE_BYTES + 64 * 1024,
    onError: () => {
      throw invalid("errors.image_too_large", { file: "errors.image_too_large" });
    },
  }),
);

uploadedImageRoutes.post(
  "/",
  route(
    {
      summary: "Upload an image for an event's elements",
      description: `A multipart/form-data body: \`event_id\`, and \`file\` (PNG, JPEG, GIF or WebP, recognised by its bytes; ${megabytes(MAX_IMAGE_BYTES)} MB at most). The event must be a draft unless the caller is a superuser. An event holds ${EVENT_IMAGE_QUOTA.count} images and ${megabytes(EVENT_IMAGE_QUOTA.bytes)} MB at most (409 past them); a user uploads ${IMAGE_UPLOADS_PER_HOUR} images an hour at most (429).`,
      auth: "user",
      scope: "manage",
      answer: UploadedImage,
      status: 201,
    },
    async (c, { user }) => {
      const { database, config } = c.get("deps");
      await countImageUpload(c.get("rateLimiter"), user);
      // An unreadable form is one without fields: the event id is then the first thing missing.
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      return answer(c, await uploadImage(database, user, { eventId: form.event_id, file: form.file }, config), 201);
    },
  ),
);

uploadedImageRoutes.get(
  "/:id/file",
  route({ summary: "An uploaded image, if public (no token)", auth: "none", produces: "image/*" }, async (c) => {
    const image = await readPublicImage(c.get("deps").database.db, idParam(c));
    return c.body(image.bytes, 200, {
      "Content-Type": image.contentType,
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
    });
  }),
);
