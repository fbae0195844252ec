// Issue 5 (docs/design.md §4 "Testing (preview) mode"): staff preview the ticket office under /tickets/preview/demo;
// every step keeps the preview segment, and a preview purchase leaves the real stock untouched.
import { expect, ORGANISER, test } from "../../fixtures.ts";
import { addArticle, expectAccessible, fillBillingInformation, payOnDemoPage, remainingStock } from "./office.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`preview with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the organiser buys a weekend pass in the preview; the real stock does not move", async ({
      page,
      request,
    }) => {
      const before = await remainingStock(request, "Weekend pass");

      await page.goto("/tickets/preview/demo");
      await expect(page.getByRole("note")).toContainText("Testing mode");
      await page.getByRole("link", { name: "Buy tickets" }).click();
      await expect(page).toHaveURL(/\/tickets\/preview\/demo\/login\?nextUrl=%2Ftickets%2Fpreview%2Fdemo%2Fbuy$/);
      await page.getByLabel("Email").fill(ORGANISER.email);
      await page.getByLabel("Password").fill(ORGANISER.password);
      await page.getByRole("button", { name: "Sign in to preview" }).click();
      await expect(page).toHaveURL("/tickets/preview/demo/buy");
      await expectAccessible(page, { javaScriptEnabled });

      // Guards keep the preview segment.
      await page.goto("/tickets/preview/demo/checkout/billing-information");
      await expect(page).toHaveURL("/tickets/preview/demo/buy");

      await addArticle(page, "Weekend pass", ["VIP lounge access"]);
      await page.getByRole("link", { name: "Checkout" }).click();
      await expect(page).toHaveURL("/tickets/preview/demo/checkout/billing-information");
      await fillBillingInformation(page, "preview@example.org");
      await expect(page).toHaveURL("/tickets/preview/demo/checkout/payment-method");
      await payOnDemoPage(page, "130.00");
      await expect(page).toHaveURL("/tickets/preview/demo/completion");
      await page.goto("/tickets/preview/demo/checkout/payment-method");
      await expect(page).toHaveURL("/tickets/preview/demo/completion");

      expect(await remainingStock(request, "Weekend pass")).toBe(before);
      expect(await remainingStock(request, "VIP lounge access")).toBe(20);

      // The control: a real guest holding a weekend pass does move it.
      await page.goto("/tickets/demo/buy");
      await page.getByRole("button", { name: "Continue as guest" }).click();
      await addArticle(page, "Weekend pass");
      expect(await remainingStock(request, "Weekend pass")).toBe(before - 1);
    });
  });
}
