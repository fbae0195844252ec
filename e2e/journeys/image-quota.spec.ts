// Issue 28 #13 (docs/decisions/0035): an organiser reads the image limits beside the upload button, gives an element
// an image (and the editor shows it), is told a 6 MB photo is too large, then, once the event's images weigh
// 49.2 MB, is told in a toast that the next one would pass 50 MB. In French too.
import type { APIRequestContext } from "@playwright/test";
import { expect, ORGANISER, test, uniquePath } from "../fixtures.ts";
import { asStaff, createEventThroughApi, signInToBackOffice } from "./ticket-office/office.ts";

const MB = 1024 * 1024;

/** A file the server takes for a PNG (it reads the first bytes), of `bytes` bytes. */
const png = (name: string, bytes: number) => ({
  name,
  mimeType: "image/png",
  buffer: Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(bytes - 8, 7)]),
});

/** Uploads `count` photos of 4.9 MB into the event through the API, as the organiser. */
async function uploadPhotos(request: APIRequestContext, eventId: number, count: number) {
  const login = await request.post("/api/v1/auth/login", { data: ORGANISER });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  for (let index = 0; index < count; index++) {
    const response = await request.post("/api/v1/uploaded-images", {
      headers,
      multipart: { event_id: String(eventId), file: png(`photo-${index}.png`, Math.round(4.9 * MB)) },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
}

test("an organiser sees the image limits, gives an element an image, and is told when the event's images are full", async ({
  openPage,
}) => {
  const api = (await openPage()).request;
  const organiser = await asStaff(api, ORGANISER);
  const event = await createEventThroughApi(organiser, {
    name: "Image quota (internal)",
    frontend_title: "Image quota",
    frontend_path: uniquePath("image-quota"),
    start_date: "2030-08-01T18:00:00.000Z",
    end_date: "2030-08-01T23:00:00.000Z",
  });
  await organiser.post(`/events/${event.id}/articles`, { title: "Poster", price: 1000, stock: 10 });

  const admin = await openPage({ viewport: { width: 1400, height: 1000 } });
  await signInToBackOffice(admin);
  await admin.goto(`/admin/events/${event.id}/edit`);
  await admin.getByRole("tab", { name: "Configuration" }).click();
  await admin.getByRole("list", { name: "Elements" }).getByText("Poster", { exact: true }).click();
  await expect(admin.getByRole("heading", { name: "Element: Poster" })).toBeVisible();
  const image = admin.getByRole("region", { name: "Image" });
  await expect(image).toContainText(
    "PNG, JPEG, WebP or GIF, 5 MB at most. An event holds 100 images and 50 MB in all.",
  );

  // A first image: said uploaded, and shown on the element (the editor used to fail here, "Unexpected error").
  await image.locator('input[type="file"]').setInputFiles(png("poster.png", 200 * 1024));
  await expect(admin.getByRole("region", { name: "Notifications" })).toContainText("Image uploaded");
  await expect(image.getByRole("img", { name: "Image of Poster" })).toBeVisible();

  // A 6 MB photo is refused before the server reads it, and the toast says why (it used to say nothing).
  await image.locator('input[type="file"]').setInputFiles(png("huge.png", 6 * MB));
  await expect(admin.getByRole("region", { name: "Notifications" })).toContainText("The image is larger than 5 MB");

  // Ten 4.9 MB photos later the event's images weigh 49.2 MB: one more megabyte is refused, and said why.
  await uploadPhotos(api, event.id, 10);
  await image.locator('input[type="file"]').setInputFiles(png("another.png", MB));
  await expect(admin.getByRole("region", { name: "Notifications" })).toContainText(
    "This image would take the event's images past 50 MB (49.2 MB stored already). Upload a lighter image.",
  );
  await expect(image.getByRole("img", { name: "Image of Poster" })).toBeVisible();

  const french = await openPage({ locale: "fr-CH", viewport: { width: 1400, height: 1000 } });
  await signInToBackOffice(french);
  await french.goto(`/admin/events/${event.id}/edit`);
  await french.getByRole("tab", { name: "Configuration" }).click();
  await french.getByRole("list", { name: "Éléments" }).getByText("Poster", { exact: true }).click();
  const imageFr = french.getByRole("region", { name: "Image" });
  await expect(imageFr).toContainText(
    "PNG, JPEG, WebP ou GIF, 5 Mo au plus. Un événement contient 100 images et 50 Mo au total.",
  );
  await imageFr.locator('input[type="file"]').setInputFiles(png("encore.png", MB));
  await expect(french.getByRole("region", { name: "Notifications" })).toContainText(
    "Cette image ferait dépasser 50 Mo aux images de l'événement (49.2 Mo déjà enregistrés).",
  );
});
