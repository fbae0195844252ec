// The element-tree editor's own calls (issue 4): move, duplicate, images, price preview.
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, run, schema } from "@ticketing/db";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { AppEnv, Ctx } from "../context.ts";
import { invalid, notFound } from "../lib/errors.ts";
import { answer, idParam, parseId, readBody, readQuery, zId } from "../lib/http.ts";
import { assertEditable, getVisibleEvent, requireUser } from "../services/access.ts";
import { type CatalogueNode, getCatalogue, invalidateCatalogue, nodePrice } from "../services/catalogue.ts";
import { duplicateNode, moveNode } from "../services/tree-editing.ts";

export const editorRoutes = new Hono<AppEnv>();

/** The node, if the user may edit its event. */
async function editableNode(c: Ctx) {
  const { database, config } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const node = await database.db
    .select()
    .from(schema.nodes)
    .where(eq(schema.nodes.id, idParam(c)))
    .get();
  if (!node) throw notFound();
  const event = await getVisibleEvent(database.db, user, node.eventId);
  assertEditable(event, user, config.supportEmail);
  return node;
}

editorRoutes.post("/nodes/:id/move", async (c) => {
  const node = await editableNode(c);
  const body = await readBody(c, z.strictObject({ parentId: zId, order: z.number().int().min(0).max(1_000_000) }));
  const { database } = c.get("deps");
  const moved = await moveNode(database, node, body);
  invalidateCatalogue(database.db, node.eventId);
  return answer(c, moved);
});

editorRoutes.post("/nodes/:id/duplicate", async (c) => {
  const node = await editableNode(c);
  await readBody(c, z.strictObject({}));
  const { database } = c.get("deps");
  const copy = await duplicateNode(database, node);
  invalidateCatalogue(database.db, node.eventId);
  return answer(c, copy, 201);
});

const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
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

editorRoutes.post(
  "/uploaded-images",
  bodyLimit({
    maxSize: MAX_IMAGE_BYTES + 64 * 1024,
    onError: () => {
      throw invalid("errors.image_too_large", { file: "errors.image_too_large" });
    },
  }),
  async (c) => {
    const { database, config } = c.get("deps");
    const user = await requireUser(database.db, c.get("auth"));
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const eventId = parseId(form.event_id);
    if (eventId === null) throw invalid("errors.id_invalid", { event_id: "errors.id_invalid" });
    const event = await getVisibleEvent(database.db, user, eventId);
    assertEditable(event, user, config.supportEmail);
    const file = form.file;
    if (!(file instanceof File)) throw invalid("errors.image_invalid", { file: "errors.image_invalid" });
    if (file.size > MAX_IMAGE_BYTES) throw invalid("errors.image_too_large", { file: "errors.image_too_large" });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const extension = imageExtension(bytes);
    if (!extension) throw invalid("errors.image_invalid", { file: "errors.image_invalid" });
    const directory = join(config.dataDir, "uploads");
    mkdirSync(directory, { recursive: true });
    const name = `${randomUUID()}.${extension}`;
    writeFileSync(join(directory, name), bytes);
    const image = await database.transaction(function* (tx) {
      return yield* run(
        tx.insert(schema.uploadedImages).values({ file: name, eventId: event.id, userId: user.id }).returning().get(),
      );
    });
    return answer(c, { ...image, url: `/api/v1/uploaded-images/${image.id}/file` }, 201);
  },
);

editorRoutes.get("/uploaded-images/:id/file", async (c) => {
  const { database, config } = c.get("deps");
  const image = await database.db
    .select()
    .from(schema.uploadedImages)
    .where(eq(schema.uploadedImages.id, idParam(c)))
    .get();
  if (image?.privacyLevel !== "public") throw notFound();
  const extension = image.file.split(".").pop() ?? "";
  return c.body(readFileSync(join(config.dataDir, "uploads", image.file)), 200, {
    "Content-Type": CONTENT_TYPES[extension] ?? "application/octet-stream",
    "Cache-Control": "public, max-age=86400",
    "X-Content-Type-Options": "nosniff",
  });
});

editorRoutes.get("/events/:id/price-preview", async (c) => {
  const { database } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const event = await getVisibleEvent(database.db, user, idParam(c));
  const query = readQuery(
    c,
    z.object({ email: z.email().max(254).optional().or(z.literal("")), codes: z.string().max(2_000).optional() }),
  );
  const visitor = {
    email: query.email || null,
    promotionCodes: (query.codes ?? "")
      .split(",")
      .map((code) => code.trim())
      .filter(Boolean),
  };
  const catalogue = await getCatalogue(database.db, event.id);
  const rows: { nodeId: number; parentId: number | null; category: string; title: string; price: number }[] = [];
  const walk = (node: CatalogueNode) => {
    const { category, title } = node.configuration;
    if (category === "article" || category === "option")
      rows.push({
        nodeId: node.id,
        parentId: node.parentId,
        category,
        title,
        price: nodePrice(catalogue, node, visitor),
      });
    node.children.forEach(walk);
  };
  walk(catalogue.root);
  return answer(c, rows);
});
