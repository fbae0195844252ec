// DONE-WHEN (issue 13), the support desk in the back office: the organiser filters an event's baskets, opens one,
// resends its confirmation, marks a point-of-sale basket paid, sees the stocks table and the dashboard change after
// a purchase, turns preview=true on and sees the preview purchase only then, and downloads the baskets list as csv
// and xlsx (read back: the same rows as the list, amounts as numbers, a formula-like name made inert).
import type { Page } from "@playwright/test";
import ExcelJS from "exceljs";
import { downloaded, expect, ORGANISER, reachConfirmation, test, uniquePath } from "../fixtures.ts";
import {
  addArticle,
  eventOnSale,
  guestOnBuyPage,
  newestMailTo,
  payOnDemoPage,
  signInToBackOffice,
} from "./ticket-office/office.ts";

const DINNER = "Gala dinner";

async function billing(page: Page, buyer: { firstName: string; lastName: string; email: string }) {
  await expect(page.getByRole("heading", { name: "Billing information" })).toBeVisible();
  await page.getByLabel("First name").fill(buyer.firstName);
  await page.getByLabel("Last name").fill(buyer.lastName);
  await page.getByLabel("Email").fill(buyer.email);
  await page.getByLabel("Address").fill("1 Rue du Lac");
  await page.getByLabel("Postal code").fill("1007");
  await page.getByLabel("City").fill("Lausanne");
  await page.getByLabel("Country").fill("Switzerland");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Payment method" })).toBeVisible();
}

/** A guest (JavaScript off) buys one dinner: paid through the demo provider, or ordered to pay on site. */
async function buyDinner(
  page: Page,
  base: string,
  buyer: { firstName: string; lastName: string; email: string },
  how: "online" | "on site",
) {
  await guestOnBuyPage(page, base);
  await addArticle(page, DINNER);
  await page.getByRole("link", { name: "Checkout" }).click();
  await billing(page, buyer);
  if (how === "on site") await page.getByRole("radio", { name: "Pay at a point of sale" }).check();
  await page.getByRole("checkbox", { name: "I accept the terms of service" }).check();
  await page.getByRole("button", { name: "Pay now" }).click();
  if (how === "on site") await expect(page.getByRole("heading", { name: "Pay at a point of sale" })).toBeVisible();
  else {
    await page.getByRole("button", { name: /^Pay CHF\s*80\.00$/ }).click();
    await reachConfirmation(page);
  }
}

/** The figure shown on the dashboard's card named `label`. */
const card = (page: Page, label: string) => page.getByRole("region", { name: label });

test("support staff follow an event's sales: baskets, resend, mark paid, stocks, dashboard, preview, exports", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("gala");
  const { event } = await eventOnSale(
    request,
    {
      name: `Gala ${path}`,
      frontend_title: "Winter Gala",
      frontend_path: path,
      start_date: "2030-12-12T18:00:00.000Z",
      end_date: "2030-12-12T23:00:00.000Z",
    },
    {
      articles: [{ title: DINNER, price: 8000, stock: 20 }],
      settings: { is_point_of_sale_enabled: true },
      prepare: ({ event, organiser }) =>
        organiser.post("/points-of-sale", { event_id: event.id, title: "Front desk", location: "Main hall" }),
    },
  );

  const noScript = { javaScriptEnabled: false };
  const ada = { firstName: "Ada", lastName: "Lovelace", email: `ada-${path}@example.org` };
  // A name an attacker would choose: in a spreadsheet it must stay text, never a live formula.
  const grace = { firstName: "Grace", lastName: '=HYPERLINK("http://x")', email: `grace-${path}@example.org` };
  await buyDinner(await openPage(noScript), `/tickets/${path}`, ada, "online");
  await buyDinner(await openPage(noScript), `/tickets/${path}`, grace, "on site");

  // The back office.
  const admin = await openPage({ acceptDownloads: true });
  await signInToBackOffice(admin);

  // The baskets, filtered by the buyer's name: only Grace's, still being paid.
  await admin.goto(`/admin/events/${event.id}/baskets`);
  await expect(admin.getByRole("row")).toHaveCount(3); // the header and two baskets
  await admin.getByRole("textbox", { name: /search/i }).fill("grace");
  await expect(admin.getByRole("row")).toHaveCount(2);
  await expect(admin.getByRole("row").nth(1)).toContainText(grace.email);
  await expect(admin.getByRole("row").nth(1)).toContainText("Payment in progress");

  // Her basket: she paid at the front desk; staff mark it paid.
  await admin.getByRole("row").nth(1).getByRole("link").first().click();
  await expect(admin.getByRole("heading", { level: 1 })).toBeVisible();
  // Her dinner waits for her payment; once paid, it is sold (not "held", as a basket still open would say).
  const articles = admin.getByRole("region", { name: "Articles" });
  await expect(articles.getByRole("row").filter({ hasText: DINNER })).toContainText("Awaiting payment");
  await admin.getByRole("button", { name: "Mark as paid" }).click();
  await admin.getByRole("dialog").getByRole("button", { name: "Mark as paid" }).click();
  await expect(admin.getByText("Validated").first()).toBeVisible();
  await expect(articles.getByRole("row").filter({ hasText: DINNER })).toContainText("Sold");
  await expect(articles).not.toContainText("Held");
  await expect(admin.getByRole("region", { name: "Emails" })).toContainText(grace.email);

  // Ada's basket: her confirmation is sent again.
  await admin.goto(`/admin/events/${event.id}/baskets`);
  await admin.getByRole("textbox", { name: /search/i }).fill("lovelace");
  await expect(admin.getByRole("row")).toHaveCount(2);
  await admin.getByRole("row").nth(1).getByRole("link").first().click();
  const emails = admin.getByRole("region", { name: "Emails" });
  await expect(emails.getByRole("row").filter({ hasText: "Order confirmation" })).toHaveCount(1);
  await admin.getByRole("button", { name: "Resend confirmation" }).click();
  await admin.getByRole("dialog").getByRole("button", { name: "Resend confirmation" }).click();
  await expect(emails.getByRole("row").filter({ hasText: "Order confirmation" })).toHaveCount(2);
  await expect.poll(() => newestMailTo(ada.email)).toContain("Winter Gala");

  // The stocks table and the dashboard before and after a third purchase.
  await admin.goto(`/admin/events/${event.id}/stocks-table`);
  // Title, path, total, new, payment in progress, validated, reserved, refunded, remaining.
  const dinnerFigures = async () =>
    (await admin.getByRole("row").filter({ hasText: DINNER }).locator("td, th").allTextContents()).slice(1);
  await expect.poll(dinnerFigures).toEqual([DINNER, "", "20", "0", "0", "2", "2", "0", "18"]);
  await admin.goto(`/admin/events/${event.id}/dashboard`);
  await expect(card(admin, "Total sales")).toContainText("160.00");
  await expect(card(admin, "Validated baskets")).toContainText("2");

  await buyDinner(
    await openPage(noScript),
    `/tickets/${path}`,
    { firstName: "Alan", lastName: "Turing", email: `alan-${path}@example.org` },
    "online",
  );
  await admin.getByRole("banner").getByRole("button", { name: "Refresh" }).click();
  await expect(card(admin, "Total sales")).toContainText("240.00");
  await expect(card(admin, "Validated baskets")).toContainText("3");
  await admin.goto(`/admin/events/${event.id}/stocks-table`);
  await expect.poll(dinnerFigures).toEqual([DINNER, "", "20", "0", "0", "3", "3", "0", "17"]);

  // A preview purchase by the organiser shows only with preview=true.
  const previewer = await openPage(noScript);
  await previewer.goto(`/tickets/preview/${path}/buy`);
  await previewer.getByLabel("Email").fill(ORGANISER.email);
  await previewer.getByLabel("Password").fill(ORGANISER.password);
  await previewer.getByRole("button", { name: "Sign in to preview" }).click();
  await addArticle(previewer, DINNER);
  await previewer.getByRole("link", { name: "Checkout" }).click();
  await billing(previewer, { firstName: "Pre", lastName: "View", email: `preview-${path}@example.org` });
  await payOnDemoPage(previewer, "80.00");

  await admin.goto(`/admin/events/${event.id}/baskets`);
  await expect(admin.getByRole("row")).toHaveCount(4);
  await expect(admin.getByText(`preview-${path}@example.org`)).toHaveCount(0);
  await admin.getByRole("switch", { name: /preview/i }).check();
  await expect(admin).toHaveURL(/preview=true/);
  await expect(admin.getByRole("row")).toHaveCount(2);
  await expect(admin.getByText(`preview-${path}@example.org`)).toBeVisible();
  // The flag stays on from page to page.
  await admin.getByRole("link", { name: "Dashboard" }).click();
  await expect(admin).toHaveURL(/\/dashboard\?preview=true/);
  await expect(card(admin, "Total sales")).toContainText("80.00");
  await admin.getByRole("switch", { name: /preview/i }).uncheck();
  await expect(card(admin, "Total sales")).toContainText("240.00");

  // The baskets list, downloaded as csv and xlsx: the list's three rows, amounts as numbers, the name inert.
  await admin.goto(`/admin/events/${event.id}/baskets`);
  await expect(admin.getByRole("row")).toHaveCount(4);
  const exportAs = async (format: RegExp, button = "Export") => {
    await admin.getByRole("button", { name: button, exact: true }).click();
    const downloading = admin.waitForEvent("download");
    await admin.getByRole("menuitem", { name: format }).click();
    return downloaded(await downloading);
  };
  const csv = (await exportAs(/CSV/)).toString("utf8");
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  const lines = csv.slice(1).trim().split("\r\n");
  expect(lines).toHaveLength(4);
  expect(csv).toContain(`"'=HYPERLINK(""http://x"")"`);
  expect(csv).toContain("80.00");

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await exportAs(/Excel/)) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  expect(sheet?.actualRowCount).toBe(4);
  const values = sheet?.getSheetValues().flat() ?? [];
  expect(values).toContain(80);
  expect(values.some((value) => typeof value === "string" && value.startsWith("'=HYPERLINK"))).toBe(true);

  // The participants from the list as it opens (sorted newest first): one row per dinner sold, with its buyer.
  await admin.goto(`/admin/events/${event.id}/baskets`);
  await expect(admin.getByRole("row")).toHaveCount(4);
  const participants = (await exportAs(/CSV/, "Export participants")).toString("utf8").slice(1).trim().split("\r\n");
  expect(participants).toHaveLength(4);
  for (const buyer of ["Lovelace", "'=HYPERLINK", "Turing"])
    expect(participants.filter((line) => line.includes(buyer))).toHaveLength(1);
  const participantsBook = new ExcelJS.Workbook();
  await participantsBook.xlsx.load((await exportAs(/Excel/, "Export participants")) as unknown as ArrayBuffer);
  expect(participantsBook.worksheets[0]?.actualRowCount).toBe(4);
  await expect(admin.getByText("The file could not be made")).toHaveCount(0);
});
