// Issue 5 (docs/specification.md §2.4): a cancelled payment goes back to the payment method; a failed one says so,
// offers a retry and goes back to the basket after a countdown (without JavaScript through a meta refresh).
import type { Page } from "@playwright/test";
import { expect, reachConfirmation, test } from "../../fixtures.ts";
import { addArticle, expectAccessible, fillBillingInformation, guestOnBuyPage } from "./office.ts";

async function startPayment(page: Page) {
  await page.getByRole("checkbox", { name: "I accept the terms of service" }).check();
  await page.getByRole("button", { name: "Pay now" }).click();
  await expect(page.getByRole("heading", { name: "Demo payment" })).toBeVisible();
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`payment outcomes with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a buyer cancels, then the payment fails, then retries and pays", async ({ page }) => {
      await guestOnBuyPage(page);
      await addArticle(page, "Weekend pass");
      await page.getByRole("link", { name: "Checkout" }).click();
      await fillBillingInformation(page);

      await startPayment(page);
      await page.getByRole("button", { name: "Cancel the payment" }).click();
      await expect(page).toHaveURL(/\/tickets\/demo\/checkout\/payment-method\?payment=cancelled$/);
      await expect(page.getByRole("status")).toHaveText(
        "Your payment was cancelled. Your basket is still waiting for you.",
      );

      await startPayment(page);
      await page.getByRole("button", { name: "Simulate a payment error" }).click();
      await expect(page.getByRole("heading", { name: "Payment failed" })).toBeVisible();
      await expect(page.getByText("An error occurred during your payment. Please try again.")).toBeVisible();
      await expect(page.getByText(/You will be taken back to your basket in \d+ seconds?\./)).toBeVisible();
      await expectAccessible(page, { javaScriptEnabled });

      if (javaScriptEnabled) {
        // The countdown moves, may be stopped, and "Try again" leaves before it ends.
        await expect(page.getByText(/in [1-8] seconds?\./)).toBeVisible();
        await expect(page.getByRole("button", { name: "Stay on this page" })).toBeVisible();
        await page.getByRole("link", { name: "Try again" }).click();
      } else {
        // Without JavaScript a meta refresh (inside <noscript>) brings the buyer back to the basket.
        await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "10;url=/tickets/demo/buy");
        await expect(page).toHaveURL(/\/tickets\/demo\/buy$/, { timeout: 15_000 });
        await expect(page.getByRole("complementary", { name: "Your basket" })).toContainText("Weekend pass");
        await page.getByRole("link", { name: "Checkout" }).click();
        // The billing information is kept.
        await expect(page.getByLabel("First name")).toHaveValue("Grace");
        await page.getByRole("button", { name: "Continue" }).click();
      }
      await expect(page.getByRole("heading", { name: "Payment method" })).toBeVisible();
      await startPayment(page);
      await page.getByRole("button", { name: /^Pay CHF\s*80\.00$/ }).click();
      await reachConfirmation(page);
    });
  });
}
