// DONE-WHEN (issue 2): the seeded demo event can be bought in a browser, with JavaScript off and on.
// DONE-WHEN (issue 28): on http://127.0.0.1:<port> while PUBLIC_URL is http://localhost:<port> (playwright.config.ts):
// "Pay now" did nothing, its answer leading to the payment page on localhost, which the page's form-action refused.
import { expect, reachConfirmation, test } from "../fixtures.ts";
import { baseURL } from "../playwright.config.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the demo event with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a guest buys a day pass with a lunch voucher and reaches the ticket download", async ({ page }) => {
      await page.goto("/");
      await page.getByRole("link", { name: /Lakeside Jazz Festival 2027/ }).click();
      await page.getByRole("link", { name: "Buy tickets" }).click();
      await expect(page).toHaveURL(/\/tickets\/demo\/login\?nextUrl=/);
      await page.getByRole("button", { name: "Continue as guest" }).click();
      await expect(page.getByRole("heading", { name: "Choose your tickets" })).toBeVisible();

      const dayPass = page.getByRole("article", { name: "Day pass" });
      await expect(dayPass).toContainText("45.00");
      await dayPass.getByRole("checkbox", { name: /Lunch voucher/ }).check();
      await dayPass.getByRole("button", { name: "Add to basket" }).click();

      const basket = page.getByRole("complementary", { name: "Your basket" });
      await expect(basket).toContainText("Day pass");
      await expect(basket).toContainText("Lunch voucher");
      await expect(basket).toContainText("60.00");
      await basket.getByRole("link", { name: "Checkout" }).click();

      await page.getByLabel("First name").fill("Grace");
      await page.getByLabel("Last name").fill("Hopper");
      await page.getByLabel("Email").fill("grace@example.org");
      await page.getByLabel("Address").fill("12 Avenue de la Gare");
      await page.getByLabel("Postal code").fill("1003");
      await page.getByLabel("City").fill("Lausanne");
      await page.getByLabel("Country").fill("Switzerland");
      await page.getByRole("button", { name: "Continue" }).click();

      await expect(page.getByRole("heading", { name: "Payment method" })).toBeVisible();
      await page.getByRole("checkbox", { name: "I accept the terms of service" }).check();
      await page.getByRole("button", { name: "Pay now" }).click();

      // The demo provider's hosted page, served by the API on the buyer's own origin, and back to it.
      await expect(page.getByRole("heading", { name: "Demo payment" })).toBeVisible();
      expect(page.url()).toMatch(new RegExp(`^${baseURL}/api/v1/payments/demo/pay/\\d+\\?sig=`));
      await page.getByRole("button", { name: /^Pay CHF\s*60\.00$/ }).click();
      await reachConfirmation(page);
      expect(page.url()).toMatch(new RegExp(`^${baseURL}/tickets/demo/`));
      const download = page.waitForEvent("download");
      await page
        .getByRole("link", { name: /Download ticket/ })
        .first()
        .click();
      expect((await download).suggestedFilename()).toMatch(/^ticket-\d+\.pdf$/);
    });
  });
}
