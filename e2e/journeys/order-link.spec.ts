// DONE-WHEN (issue 14), the order link: the confirmation mail's "View your order" link, opened in a new browser
// context (no cookies, JavaScript off), shows the order and downloads its ticket; a tampered link is the 404 page;
// a ticket download of one buyer's order opened with another buyer's login is the 404 page (HTML), not JSON.
import { expect, mailLinks, test, uniquePath } from "../fixtures.ts";
import { dataDir } from "../playwright.config.ts";
import {
  addArticle,
  eventOnSale,
  fillBillingInformation,
  guestOnBuyPage,
  payOnDemoPage,
} from "./ticket-office/office.ts";

const CONCERT = "Evening concert";

test("the order link opens the order on any device; another buyer's download is the 404 page", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("order");
  await eventOnSale(
    request,
    {
      name: `Order ${path}`,
      frontend_title: "Autumn Concert",
      frontend_path: path,
      start_date: "2030-10-12T18:00:00.000Z",
      end_date: "2030-10-12T23:00:00.000Z",
    },
    { articles: [{ title: CONCERT, price: 3000, stock: 10 }] },
  );

  const base = `/tickets/${path}`;
  const email = `ada-${path}@example.org`;
  const buyer = await openPage({ javaScriptEnabled: false });
  await guestOnBuyPage(buyer, base);
  await addArticle(buyer, CONCERT);
  await buyer.getByRole("link", { name: "Checkout" }).click();
  await fillBillingInformation(buyer, email);
  await payOnDemoPage(buyer, "30.00");
  const ticketPath = await buyer.getByRole("link", { name: /Download ticket/ }).getAttribute("href");
  expect(ticketPath).toMatch(new RegExp(`^${base}/baskets/\\d+/tickets/\\d+$`));

  // The mail's link, opened where the buyer has never signed in.
  await expect.poll(() => mailLinks(dataDir, email).filter((link) => link.includes("/orders/")).length).toBe(1);
  const link = mailLinks(dataDir, email).find((href) => href.includes("/orders/")) as string;
  expect(link).toMatch(new RegExp(`${base}/orders/\\d+\\.\\d+\\.[0-9a-f]{64}$`));
  const elsewhere = await openPage({ javaScriptEnabled: false });
  const opened = await elsewhere.goto(link);
  expect(opened?.status()).toBe(200);
  await expect(elsewhere.getByRole("heading", { name: "Your order" })).toBeVisible();
  await expect(elsewhere.getByText("Status: Paid")).toBeVisible();
  await expect(elsewhere.getByText(CONCERT, { exact: true })).toBeVisible();
  const [download] = await Promise.all([
    elsewhere.waitForEvent("download"),
    elsewhere.getByRole("link", { name: /Download ticket/ }).click(),
  ]);
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).subarray(0, 5).toString()).toBe("%PDF-");
  await expect(elsewhere.getByRole("link", { name: /Download the invoice/ })).toBeVisible();

  // One character changed: the 404 page.
  const tampered = link.replace(/[0-9a-f]$/, (last) => (last === "0" ? "1" : "0"));
  const refused = await elsewhere.goto(tampered);
  expect(refused?.status()).toBe(404);
  await expect(elsewhere.getByRole("heading", { name: "Page not found" })).toBeVisible();

  // Another buyer, signed in to the same ticket office, asks for the first buyer's ticket: the 404 page.
  const other = await openPage({ javaScriptEnabled: false });
  await guestOnBuyPage(other, base);
  const foreign = await other.goto(ticketPath as string);
  expect(foreign?.status()).toBe(404);
  expect(foreign?.headers()["content-type"]).toMatch(/^text\/html/);
  await expect(other.getByRole("heading", { name: "Page not found" })).toBeVisible();
});
