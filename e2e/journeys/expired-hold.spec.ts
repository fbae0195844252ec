// DONE-WHEN (issue 14), expired holds: a buyer (JavaScript off) of an event with a one-minute reservation time
// puts two articles in the basket, answers the form and gives billing information, goes away past the hold, comes
// back, is told what was put back, and finishes the purchase without typing anything again.
import { expect, test, uniquePath } from "../fixtures.ts";
import {
  addArticle,
  endHoldsOf,
  eventOnSale,
  fillBillingInformation,
  guestOnBuyPage,
  payOnDemoPage,
  remainingStock,
} from "./ticket-office/office.ts";

const CONCERT = "Evening concert";
const WORKSHOP = "Morning workshop";
const BADGE = "Name on badge";

test("a buyer whose reservation expired gets the articles back with their answers and billing kept", async ({
  openPage,
  request,
}) => {
  // The holds ended in the database, then a sweep of the stock.
  test.setTimeout(180_000);
  const path = uniquePath("hold");
  const { event } = await eventOnSale(
    request,
    {
      name: `Hold ${path}`,
      frontend_title: "Spring Festival",
      frontend_path: path,
      start_date: "2030-04-12T18:00:00.000Z",
      end_date: "2030-04-12T23:00:00.000Z",
    },
    {
      articles: [
        { title: CONCERT, price: 3000, stock: 10 },
        { title: WORKSHOP, price: 2000, stock: 10 },
      ],
      settings: { reservation_minutes: 1 },
      prepare: async ({ event, articles: [, workshop], organiser }) => {
        const group = await organiser.post("/node-extra-info-groups", {
          event_id: event.id,
          name: "Attendee",
          is_required: true,
          node_configuration_ids: [workshop.configuration.id],
        });
        await organiser.post("/node-extra-infos", {
          event_id: event.id,
          group_id: group.id,
          name: BADGE,
          text: BADGE,
          type: "text",
        });
      },
    },
  );

  const page = await openPage({ javaScriptEnabled: false });
  const base = `/tickets/${path}`;
  await guestOnBuyPage(page, base);
  await addArticle(page, CONCERT);
  await addArticle(page, WORKSHOP);
  await page.getByRole("link", { name: "Checkout" }).click();
  await expect(page.getByRole("heading", { name: "About your tickets" })).toBeVisible();
  await page.getByLabel(BADGE).fill("Ada Lovelace");
  await page.getByRole("button", { name: "Continue" }).click();
  await fillBillingInformation(page, `grace-${path}@example.org`);
  expect(await remainingStock(request, CONCERT, event.id)).toBe(9);

  // The buyer goes away past the reservation (its stock goes back with the next sweep, or at the buyer's return).
  endHoldsOf(event.id);

  // Back on the payment step: the ticket office takes them to the buy page, puts both back and says so.
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`${base}/buy$`));
  const notice = page.getByRole("status").filter({ hasText: "Your reservation expired." });
  await expect(notice).toContainText("We could put back:");
  await expect(notice.getByRole("listitem")).toHaveText([CONCERT, WORKSHOP]);
  await expect(notice).not.toContainText("no longer available");
  await expect(page.getByRole("complementary", { name: "Your basket" })).toContainText(WORKSHOP);
  expect(await remainingStock(request, CONCERT, event.id)).toBe(9);
  // Shown once: the next visit of the page has nothing to tell.
  await page.reload();
  await expect(page.getByText("Your reservation expired.")).toHaveCount(0);

  // Nothing to type again: the answer and the billing information are there.
  await page.getByRole("link", { name: "Checkout" }).click();
  await expect(page.getByLabel(BADGE)).toHaveValue("Ada Lovelace");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Billing information" })).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveValue("Grace");
  await expect(page.getByLabel("Email")).toHaveValue(`grace-${path}@example.org`);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Payment method" })).toBeVisible();
  await payOnDemoPage(page, "50.00");
  await expect(page.getByRole("region", { name: /Order/ })).toContainText(WORKSHOP);
});
