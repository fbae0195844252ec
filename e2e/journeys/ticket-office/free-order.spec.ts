// Issue 5 (docs/design.md §4): a basket whose total is 0 is confirmed without a payment.
import { expect, test } from "../../fixtures.ts";
import { addArticle, ensureDemoArticle, expectAccessible, fillBillingInformation, guestOnBuyPage } from "./office.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`free order with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a guest orders a free ticket and is confirmed at once", async ({ page, request }) => {
      await ensureDemoArticle(request, { title: "Open rehearsal", price: 0, stock: 500 });
      await guestOnBuyPage(page);
      await expect(page.getByRole("article", { name: "Open rehearsal" })).toContainText("0.00");
      await addArticle(page, "Open rehearsal");
      const basket = page.getByRole("complementary", { name: "Your basket" });
      await expect(basket.locator(".total")).toContainText("0.00");
      await basket.getByRole("link", { name: "Checkout" }).click();
      await fillBillingInformation(page, "free@example.org");
      // No payment method to choose for a free basket.
      await expect(page.getByRole("group", { name: "How do you want to pay?" })).toHaveCount(0);
      await expectAccessible(page, { javaScriptEnabled });
      await page.getByRole("checkbox", { name: "I accept the terms of service" }).check();
      await page.getByRole("button", { name: "Confirm order" }).click();
      await expect(page).toHaveURL("/tickets/demo/completion");
      await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
      await expect(page.getByRole("main")).toContainText("Open rehearsal");
      await expect(page.getByRole("link", { name: /Download ticket/ })).toBeVisible();
    });
  });
}
