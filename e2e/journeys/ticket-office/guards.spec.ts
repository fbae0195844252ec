// Issue 5 (docs/specification.md §2.3, §5, §8): the ticket office's guards hold on the server, with JavaScript
// off and on.
import type { Page } from "@playwright/test";
import { expect, reachConfirmation, test, uniquePath } from "../../fixtures.ts";
import {
  addArticle,
  asStaff,
  eventOnSale,
  expectAccessible,
  fillBillingInformation,
  guestOnBuyPage,
} from "./office.ts";

const notFound = async (page: Page, url: string) => {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
};

for (const javaScriptEnabled of [false, true]) {
  test.describe(`guards with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a visitor without a login is sent to log in, and comes back", async ({ page }) => {
      for (const step of ["buy", "checkout/billing-information", "checkout/payment-method", "completion"]) {
        await page.goto(`/tickets/demo/${step}`);
        await expect(page).toHaveURL(`/tickets/demo/login?nextUrl=${encodeURIComponent(`/tickets/demo/${step}`)}`);
      }
      await page.getByRole("button", { name: "Continue as guest" }).click();
      // Back to where the visitor was going; with an empty basket, completion sends on to buy.
      await expect(page).toHaveURL("/tickets/demo/buy");
    });

    test("unknown events, pages and ids answer 404", async ({ page }) => {
      await notFound(page, "/tickets/no-such-event");
      await notFound(page, "/tickets/no-such-event/buy");
      await notFound(page, "/tickets/demo/no-such-page");
      await notFound(page, "/tickets/demo/payment/return/abc/error");
      await notFound(page, "/tickets/demo/payment/return/1/maybe");
      await notFound(page, "/tickets/demo/payment/pointofsale/abc");
      await notFound(page, "/tickets/demo/payment/return");
    });

    test("the wizard follows the basket: empty, being paid, paid", async ({ page }) => {
      await guestOnBuyPage(page);
      // No basket yet: every step goes back to buy.
      for (const step of ["checkout/billing-information", "checkout/payment-method", "payment/pointofsale/1"]) {
        await page.goto(`/tickets/demo/${step}`);
        await expect(page).toHaveURL("/tickets/demo/buy");
      }
      // An emptied basket too.
      await addArticle(page, "Day pass");
      await page.getByRole("complementary", { name: "Your basket" }).getByRole("button", { name: "Remove" }).click();
      await expect(page.getByRole("complementary", { name: "Your basket" })).toContainText("Your basket is empty.");
      await page.goto("/tickets/demo/checkout/billing-information");
      await expect(page).toHaveURL("/tickets/demo/buy");

      // The payment step needs billing information first.
      await addArticle(page, "Day pass");
      await page.goto("/tickets/demo/checkout/payment-method");
      await expect(page).toHaveURL("/tickets/demo/checkout/billing-information");
      await fillBillingInformation(page);

      // A payment under way: buy and billing information lead to the payment step, which offers to continue.
      await page.getByRole("checkbox", { name: "I accept the terms of service" }).check();
      await page.getByRole("button", { name: "Pay now" }).click();
      await expect(page.getByRole("heading", { name: "Demo payment" })).toBeVisible();
      for (const step of ["buy", "checkout/billing-information"]) {
        await page.goto(`/tickets/demo/${step}`);
        await expect(page).toHaveURL("/tickets/demo/checkout/payment-method");
      }
      await expect(page.getByText("A payment for this basket is already in progress.")).toBeVisible();
      await page.getByRole("link", { name: "Continue the payment" }).click();
      await page.getByRole("button", { name: /^Pay CHF\s*45\.00$/ }).click();
      await reachConfirmation(page);

      // Paid: the wizard's steps lead to the confirmation.
      for (const step of ["checkout/billing-information", "checkout/payment-method"]) {
        await page.goto(`/tickets/demo/${step}`);
        await expect(page).toHaveURL("/tickets/demo/completion");
      }
    });

    test("closed payments and registrations are said instead of the forms", async ({ page, request }) => {
      // An event of its own: its dates are changed during the test.
      const moderator = await asStaff(request);
      const path = uniquePath("windows");
      const { event } = await eventOnSale(
        request,
        {
          name: `Windows ${path}`,
          frontend_title: "Payments Later Festival",
          frontend_path: path,
          start_date: "2030-05-01T18:00:00.000Z",
          end_date: "2030-05-01T23:00:00.000Z",
          payments_start_date: "2030-01-01T00:00:00.000Z",
        },
        { articles: [{ title: "Entry", price: 2000, stock: 10 }] },
      );

      await guestOnBuyPage(page, `/tickets/${path}`);
      await addArticle(page, "Entry");
      await page.getByRole("link", { name: "Checkout" }).click();
      await fillBillingInformation(page);
      await expect(page.getByText("Payments are not allowed yet")).toBeVisible();
      await expect(page.getByRole("button", { name: "Pay now" })).toHaveCount(0);

      await moderator.put(`/events/${event.id}`, { registrations_end_date: "2026-01-01T00:00:00.000Z" });
      await page.goto(`/tickets/${path}`);
      await expect(page.getByText("Registrations are not currently open")).toBeVisible();
      await expect(page.getByRole("link", { name: "Buy tickets" })).toHaveCount(0);
      // docs/specification.md §5: the basket cannot be changed any more (404), and the buy link says why
      // (docs/decisions/0034), in the visitor's language, with the way back to the event's page.
      const closed = await page.goto(`/tickets/${path}/buy`);
      expect(closed?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Registrations are not currently open" })).toBeVisible();
      await expectAccessible(page, { javaScriptEnabled });
      await page.getByRole("button", { name: "Français" }).click();
      await expect(page).toHaveURL(`/tickets/${path}/buy`);
      await expect(
        page.getByRole("heading", { name: "Les inscriptions ne sont pas ouvertes actuellement" }),
      ).toBeVisible();
      await expectAccessible(page, { javaScriptEnabled });
      await page.getByRole("link", { name: "Retour à la page de l'événement" }).click();
      await expect(page).toHaveURL(`/tickets/${path}`);
      await expect(page.getByRole("heading", { name: "Payments Later Festival" })).toBeVisible();
    });
  });
}
