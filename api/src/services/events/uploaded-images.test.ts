// Uploaded images live in the database (docs/decisions/0024): every API process serves every image, and the ones
// an earlier version stored as files under DATA_DIR/uploads are moved in at start. How much an event may hold and
// how fast a person may upload (docs/decisions/0035).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, eq, schema } from "@ticketing/db";
import { EVENT_IMAGE_QUOTA, IMAGE_UPLOADS_PER_HOUR } from "@ticketing/shared/images";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../env.ts";
import { createProduct, type Product } from "../../product.ts";
import { DEMO_MODERATOR } from "../../seed.ts";
import { createTestContext, DRIVERS, loginAs, type TestContext } from "../../test-support.ts";
import { createUser } from "../accounts/sessions.ts";

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

describe.each(DRIVERS)("an event's image quota and a person's upload rate (%s)", (driver) => {
  let ctx: TestContext;
  const PASSWORD = "correct-horse-battery-1!";
  const people: Record<"ada" | "bob" | "cy", { token: string; unitId: number }> = {} as never;
  let paths = 0;

  beforeAll(async () => {
    ctx = await createTestContext(driver);
    for (const name of ["ada", "bob", "cy"] as const) {
      const email = `${name}@example.org`;
      const user = await createUser(ctx.database, { email, password: PASSWORD });
      people[name] = { token: await loginAs(ctx, email, PASSWORD), unitId: Number(user.personalUnitId) };
    }
  });
  afterAll(async () => ctx.close());

  /** A new draft event of `who`'s personal unit. */
  const draftEvent = async (who: keyof typeof people) => {
    paths += 1;
    const created = await ctx.call("POST", "/events", {
      token: people[who].token,
      body: {
        unit_id: people[who].unitId,
        name: `Quota ${paths}`,
        frontend_title: `Quota ${paths}`,
        frontend_path: `quota-${driver}-${paths}`,
        start_date: "2030-01-01T10:00:00Z",
        end_date: "2030-01-01T12:00:00Z",
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as number;
  };

  /** Images already stored for `eventId` (as uploads before would have left them). */
  const storeImages = (eventId: number, sizes: number[]) =>
    ctx.database.db
      .insert(schema.uploadedImages)
      .values(sizes.map((size, index) => ({ file: `earlier-${index}.png`, bytes: Buffer.alloc(size), eventId })));

  const upload = async (who: keyof typeof people, eventId: number, language = "en") => {
    const form = new FormData();
    form.set("event_id", String(eventId));
    form.set("file", new File([PNG], "pixel.png", { type: "image/png" }));
    const response = await ctx.app.request("/api/v1/uploaded-images", {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${people[who].token}`, "accept-language": language },
    });
    return { status: response.status, body: await response.json(), retryAfter: response.headers.get("retry-after") };
  };

  it("accepts an event's 100th image and refuses its 101st with 409, in English and French; another event still accepts", async () => {
    const full = await draftEvent("ada");
    await storeImages(
      full,
      Array.from({ length: EVENT_IMAGE_QUOTA.count - 1 }, () => 1024),
    );
    expect((await upload("ada", full)).status).toBe(201);

    const refused = await upload("ada", full);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual(["This event already holds 100 images, the most an event may hold."]);
    const refusedInFrench = await upload("ada", full, "fr-CH,fr;q=0.9");
    expect(refusedInFrench.status).toBe(409);
    expect(refusedInFrench.body.errors).toEqual([
      "Cet événement contient déjà 100 images, le maximum pour un événement.",
    ]);
    const stored = await ctx.database.db.$count(schema.uploadedImages, eq(schema.uploadedImages.eventId, full));
    expect(stored).toBe(EVENT_IMAGE_QUOTA.count);

    const other = await draftEvent("ada");
    expect((await upload("ada", other)).status).toBe(201);
  });

  it("accepts an image that fills the event's 50 MB exactly and refuses one byte more", async () => {
    const heavy = await draftEvent("bob");
    // Ten photos of 5 MB less what the next image weighs: that one fits, to the byte.
    const photo = EVENT_IMAGE_QUOTA.bytes / 10;
    await storeImages(heavy, [...Array.from({ length: 9 }, () => photo), photo - PNG.length]);
    expect((await upload("bob", heavy)).status).toBe(201);

    const refused = await upload("bob", heavy);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      "This image would take the event's images past 50 MB (50 MB stored already). Upload a lighter image.",
    ]);
    const refusedInFrench = await upload("bob", heavy, "fr");
    expect(refusedInFrench.body.errors).toEqual([
      "Cette image ferait dépasser 50 Mo aux images de l'événement (50 Mo déjà enregistrés). Téléversez une image plus légère.",
    ]);
  });

  it("lets two uploads racing for an event's last place store one image, not two", async () => {
    const lastPlace = await draftEvent("bob");
    await storeImages(
      lastPlace,
      Array.from({ length: EVENT_IMAGE_QUOTA.count - 1 }, () => 1024),
    );
    const statuses = (await Promise.all([upload("bob", lastPlace), upload("bob", lastPlace)])).map((r) => r.status);
    expect(statuses.sort()).toEqual([201, 409]);
    expect(await ctx.database.db.$count(schema.uploadedImages, eq(schema.uploadedImages.eventId, lastPlace))).toBe(
      EVENT_IMAGE_QUOTA.count,
    );
  });

  it("refuses a person's uploads past 60 an hour with 429 and Retry-After; another person still uploads", async () => {
    // Cy uploads here only: every attempt counts, refused ones too.
    const events = [await draftEvent("cy"), await draftEvent("cy")];
    for (let accepted = 0; accepted < IMAGE_UPLOADS_PER_HOUR; accepted++) {
      const answer = await upload("cy", events[accepted % 2] as number);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    }
    const refused = await upload("cy", events[0] as number);
    expect(refused.status).toBe(429);
    expect(refused.body.errors).toEqual([
      expect.stringMatching(/^Too many images uploaded within an hour\. Try again in \d+ minutes\.$/),
    ]);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    const inFrench = await upload("cy", events[0] as number, "fr");
    expect(inFrench.body.errors).toEqual([expect.stringMatching(/^Trop d'images téléversées en une heure\./)]);

    expect((await upload("bob", await draftEvent("bob"))).status).toBe(201);
  });
});
