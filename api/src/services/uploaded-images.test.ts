// Uploaded images live in the database (docs/decisions/0024): every API process serves every image, and the ones
// an earlier version stored as files under DATA_DIR/uploads are moved in at start.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../env.ts";
import { createProduct, type Product } from "../product.ts";
import { DEMO_MODERATOR } from "../seed.ts";
import { DRIVERS } from "../test-support.ts";

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const FORMER_GIF = Buffer.from("474946383961010001000000002c00000000010001000002", "hex");

describe.each(DRIVERS)("uploaded images shared by two processes (%s)", (driver) => {
  const directory = mkdtempSync(join(tmpdir(), "ticketing-images-"));
  const url = `file:${join(directory, "ticketing.sqlite")}`;
  const settingsOf = (dataDir: string) =>
    loadConfig({ DATA_DIR: join(directory, dataDir), DATABASE_URL: url, DB_DRIVER: driver, LOG_MAILS: "false" });
  const products: Product[] = [];
  const former = { served: 0, missing: 0 };

  beforeAll(async () => {
    // An install from before: two image records, one of whose files is on disk in the first process's DATA_DIR.
    const database = createDatabase({ url, driver });
    await database.migrate();
    const rows = await database.db
      .insert(schema.uploadedImages)
      .values([{ file: "former.gif" }, { file: "lost.png" }])
      .returning({ id: schema.uploadedImages.id });
    await database.close();
    former.served = rows[0]?.id ?? 0;
    former.missing = rows[1]?.id ?? 0;
    mkdirSync(join(directory, "one", "uploads"), { recursive: true });
    writeFileSync(join(directory, "one", "uploads", "former.gif"), FORMER_GIF);

    for (const dataDir of ["one", "two"])
      products.push(await createProduct(settingsOf(dataDir), { mailIntervalMs: 3_600_000 }));
  });
  afterAll(async () => {
    for (const product of products) await product.stop();
    rmSync(directory, { recursive: true, force: true });
  });
  const product = (index: 0 | 1) => products[index] as Product;

  it("serves an image uploaded through one process from the other, with the same headers", async () => {
    const login = await product(0).app.request("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(DEMO_MODERATOR),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const event = await product(0).database.db.select({ id: schema.events.id }).from(schema.events).get();
    const form = new FormData();
    form.set("event_id", String(event?.id));
    form.set("file", new File([PNG], "pixel.png", { type: "image/png" }));
    const uploaded = await product(0).app.request("/api/v1/uploaded-images", {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(uploaded.status).toBe(201);
    const body = (await uploaded.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty("bytes");

    const served = await product(1).app.request(body.url as string);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("still serves an image stored on disk before, from every process", async () => {
    for (const index of [0, 1] as const) {
      const served = await product(index).app.request(`/api/v1/uploaded-images/${former.served}/file`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/gif");
      expect(Buffer.from(await served.arrayBuffer())).toEqual(FORMER_GIF);
    }
  });

  it("answers 404 for a former image whose file was missing, and moves nothing twice", async () => {
    const lost = await product(1).app.request(`/api/v1/uploaded-images/${former.missing}/file`);
    expect(lost.status).toBe(404);
    // Another start with the file changed on disk meanwhile: the image in the database stays as it was moved in.
    writeFileSync(join(directory, "one", "uploads", "former.gif"), PNG);
    const again = await createProduct(settingsOf("one"), { mailIntervalMs: 3_600_000 });
    products.push(again);
    const served = await again.app.request(`/api/v1/uploaded-images/${former.served}/file`);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(FORMER_GIF);
  });
});
