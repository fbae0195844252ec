// DONE-WHEN (issue 2): an organiser creates an event and an article in the admin and publishes it; a buyer
// with JavaScript disabled buys it and downloads a PDF whose QR code decodes to a ticket code the API
// verifies; a second buyer is refused when the stock is exhausted.
import type { Page } from "@playwright/test";
import { decodeTicketQr, expect, MODERATOR, ORGANISER, test, typeDateTime, uniquePath } from "../fixtures.ts";
import { payOnDemoPage, signInToBackOffice } from "./ticket-office/office.ts";

async function guestOnBuyPage(page: Page, path: string) {
  await page.goto(`/tickets/${path}/buy`);
  await page.getByRole("button", { name: "Continue as guest" }).click();
  await expect(page.getByRole("heading", { name: "Choose your tickets" })).toBeVisible();
}

test("an organiser puts one ticket on sale; the first buyer (no JavaScript) gets it, the second is refused", async ({
  openPage,
}) => {
  const path = uniquePath("quartet");
  const title = "Front-row seat";

  // The organiser, in the back office (a react-admin SPA: JavaScript on).
  const admin = await openPage();
  await signInToBackOffice(admin);
  await admin.getByRole("link", { name: "Create" }).click();
  await expect(admin).toHaveURL(/\/admin\/events\/create$/);
  await admin.getByRole("textbox", { name: "Private name", exact: true }).fill("String quartet night (internal)");
  await admin.getByRole("textbox", { name: "Public name", exact: true }).fill("String Quartet Night");
  await admin.getByRole("textbox", { name: "Ticket office path", exact: true }).fill(path);
  await typeDateTime(admin, "Start", "03012030 0700PM");
  await typeDateTime(admin, "End", "03012030 1000PM");
  await admin.getByRole("button", { name: /save/i }).click();

  await expect(admin.getByRole("heading", { name: "Articles" })).toBeVisible();
  await admin.getByRole("textbox", { name: "Title", exact: true }).fill(title);
  await admin.getByRole("textbox", { name: "Price (CHF)", exact: true }).fill("35.00");
  await admin.getByRole("textbox", { name: "Stock", exact: true }).fill("1");
  await admin.getByRole("button", { name: "Add an article" }).click();
  await expect(admin.getByText("Article added")).toBeVisible();
  await expect(admin.getByRole("cell", { name: title })).toBeVisible();

  // Going public needs a moderator's approval; the moderation screens are issue 3's journey.
  const api = admin.request;
  const token = async (who: { email: string; password: string }) =>
    (await (await api.post("/api/v1/auth/login", { data: who })).json()).access_token as string;
  const eventId = Number(admin.url().match(/events\/(\d+)/)?.[1]);
  expect(
    (
      await api.post(`/api/v1/events/${eventId}/moderation/request`, {
        data: {},
        headers: { authorization: `Bearer ${await token(ORGANISER)}` },
      })
    ).status(),
  ).toBe(200);
  expect(
    (
      await api.post(`/api/v1/events/${eventId}/moderation/approve`, {
        data: {},
        headers: { authorization: `Bearer ${await token(MODERATOR)}` },
      })
    ).status(),
  ).toBe(200);
  // Published on the status settings (the editor has no status select).
  await admin.goto(`/admin/events/${eventId}/settings/status`);

  await admin.getByRole("combobox", { name: "Status" }).click();
  await admin.getByRole("option", { name: "Public" }).click();
  await admin
    .getByRole("button", { name: /^save$/i })
    .first()
    .click();
  await expect(admin.getByText(/updated|saved/i).first()).toBeVisible();

  // Two buyers without JavaScript open the buy page while the seat is still available.
  const context = { javaScriptEnabled: false, acceptDownloads: true };
  const first = await openPage(context);
  const second = await openPage(context);
  await guestOnBuyPage(first, path);
  await guestOnBuyPage(second, path);
  await expect(second.getByRole("article", { name: title })).toContainText("Only a few left");

  await first.getByRole("article", { name: title }).getByRole("button", { name: "Add to basket" }).click();
  await expect(first.getByRole("complementary", { name: "Your basket" })).toContainText(title);

  // The second buyer's page still offers the seat; the server refuses it.
  await second.getByRole("article", { name: title }).getByRole("button", { name: "Add to basket" }).click();
  await expect(second.getByText(`Sold out: ${title}`)).toBeVisible();
  await expect(second.getByRole("complementary", { name: "Your basket" })).toContainText("Your basket is empty.");
  await expect(second.getByRole("article", { name: title }).getByRole("button", { name: "Add to basket" })).toHaveCount(
    0,
  );

  // The first buyer pays and downloads the ticket.
  await first.getByRole("link", { name: "Checkout" }).click();
  await first.getByLabel("First name").fill("Clara");
  await first.getByLabel("Last name").fill("Schumann");
  await first.getByLabel("Email").fill("clara@example.org");
  await first.getByLabel("Address").fill("3 Place de la Palud");
  await first.getByLabel("Postal code").fill("1003");
  await first.getByLabel("City").fill("Lausanne");
  await first.getByLabel("Country").fill("Switzerland");
  await first.getByRole("button", { name: "Continue" }).click();
  await payOnDemoPage(first, "35.00");

  const downloading = first.waitForEvent("download");
  await first.getByRole("link", { name: /Download ticket/ }).click();
  const download = await downloading;
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const pdf = Buffer.concat(chunks);
  expect(pdf.subarray(0, 4).toString()).toBe("%PDF");

  const code = decodeTicketQr(pdf);
  const verified = await first.request.get(`/api/v1/tickets/verify?code=${encodeURIComponent(code)}`);
  expect(verified.status()).toBe(200);
  expect(await verified.json()).toMatchObject({ valid: true, ticket: { title, status: "validated" } });
  const forged = await first.request.get(`/api/v1/tickets/verify?code=${encodeURIComponent(`${code.slice(0, -2)}xx`)}`);
  expect(forged.status()).toBe(400);

  // The organiser's baskets list shows the sale. Other journeys add events beside it: the organiser searches.
  await admin.goto("/admin/events");
  await admin.getByPlaceholder("Search").fill("String quartet night");
  await admin.getByText("String quartet night (internal)").click();
  await admin.getByRole("link", { name: "Baskets" }).click();
  await expect(admin.getByText("clara@example.org")).toBeVisible();
  await expect(admin.getByText("Validated")).toBeVisible();
});
