// Issue 5 (buy page): images and tags are shown per the element's display flags.
import { expect, MODERATOR, test } from "../../fixtures.ts";
import { asStaff, DEMO_EVENT_ID, guestOnBuyPage } from "./office.ts";

// A 1×1 PNG.
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

test.describe.configure({ mode: "serial" });

test("the organiser's image and tag appear on the article, and disappear when hidden", async ({
  openPage,
  request,
}) => {
  const staff = await asStaff(request, MODERATOR);
  const articles = (await staff.get(`/events/${DEMO_EVENT_ID}/articles`)) as {
    node_id: number;
    configuration_id: number;
    title: string;
  }[];
  const weekend = articles.find((a) => a.title === "Weekend pass");
  expect(weekend).toBeTruthy();
  const configurationId = weekend?.configuration_id as number;
  const token = (await (await request.post("/api/v1/auth/login", { data: MODERATOR })).json()).access_token as string;
  const upload = await request.post("/api/v1/uploaded-images", {
    headers: { authorization: `Bearer ${token}` },
    multipart: { event_id: String(DEMO_EVENT_ID), file: { name: "stage.png", mimeType: "image/png", buffer: PIXEL } },
  });
  expect(upload.status()).toBe(201);
  const image = await upload.json();
  await staff.put(`/node-configurations/${configurationId}`, { image_id: image.id });
  const tag = await staff.post("/node-tags", {
    event_id: DEMO_EVENT_ID,
    name: "Best value",
    node_configuration_id: configurationId,
  });

  for (const javaScriptEnabled of [false, true]) {
    const page = await openPage({ javaScriptEnabled });
    await guestOnBuyPage(page);
    const card = page.getByRole("article", { name: "Weekend pass" });
    await expect(card.getByRole("list", { name: "Tags" })).toContainText("Best value");
    await expect(card.locator("img")).toHaveAttribute("src", image.url);
  }

  await staff.put(`/node-configurations/${configurationId}`, {
    is_tags_displayable: false,
    is_image_displayable: false,
  });
  const page = await openPage({ javaScriptEnabled: false });
  await guestOnBuyPage(page);
  const card = page.getByRole("article", { name: "Weekend pass" });
  await expect(card.getByRole("list", { name: "Tags" })).toHaveCount(0);
  await expect(card.locator("img")).toHaveCount(0);
  await staff.put(`/node-configurations/${configurationId}`, {
    is_tags_displayable: true,
    is_image_displayable: true,
    image_id: null,
  });
  expect(tag.id).toBeGreaterThan(0);
});
