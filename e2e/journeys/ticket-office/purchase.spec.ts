// Issue 5: a guest buys with options and the promotion code EARLYBIRD, with JavaScript off and on; the main
// pages have no serious accessibility violation.
import { expect, reachConfirmation, test } from "../../fixtures.ts";
import { expectAccessible, fillBillingInformation, guestOnBuyPage } from "./office.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`purchase with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a guest applies EARLYBIRD, buys a day pass with a lunch voucher and pays", async ({ page }) => {
      await guestOnBuyPage(page);
      await expectAccessible(page, { javaScriptEnabled });
      const dayPass = page.getByRole("article", { name: "Day pass" });
      await expect(dayPass).toContainText("45.00");

      // A wrong code is refused beside the field.
      const codeField = page.getByRole("textbox", { name: "Enter a promotion code" });
      await codeField.fill("LATEBIRD");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page.getByText("This promotion code is not valid")).toBeVisible();
      await expect(page.getByRole("textbox", { name: "Enter a promotion code" })).toHaveAttribute(
        "aria-invalid",
        "true",
      );
      await expectAccessible(page, { javaScriptEnabled });

      await page.getByRole("textbox", { name: "Enter a promotion code" }).fill("earlybird");
      await page.getByRole("button", { name: "Apply" }).click();
      const activeCodes = page.getByRole("list", { name: "Active promotion codes" });
      await expect(activeCodes).toContainText("EARLYBIRD");
      // Prices are computed again by the API: 45.00 − 10 %.
      await expect(dayPass).toContainText("40.50");

      // The same code twice is refused.
      await page.getByRole("textbox", { name: "Enter a promotion code" }).fill("EARLYBIRD");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page.getByText("This promotion code is already active")).toBeVisible();

      // Removing the code puts the full price back; applying it again takes it off.
      await activeCodes.getByRole("button", { name: /Remove/ }).click();
      await expect(page.getByRole("list", { name: "Active promotion codes" })).toHaveCount(0);
      await expect(dayPass).toContainText("45.00");
      await page.getByRole("textbox", { name: "Enter a promotion code" }).fill("EARLYBIRD");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(dayPass).toContainText("40.50");

      await dayPass.getByRole("checkbox", { name: /Lunch voucher/ }).check();
      await dayPass.getByRole("button", { name: "Add to basket" }).click();
      const basket = page.getByRole("complementary", { name: "Your basket" });
      await expect(basket).toContainText("Lunch voucher");
      await expect(basket).toContainText("55.50"); // 40.50 + 15.00

      await basket.getByRole("link", { name: "Checkout" }).click();
      await expect(page.getByRole("heading", { name: "Billing information" })).toBeVisible();
      await expectAccessible(page, { javaScriptEnabled });
      // An empty form is refused with a summary linking to each field.
      await page.getByRole("button", { name: "Continue" }).click();
      const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
      await expect(summary).toBeVisible();
      await expect(summary.getByRole("link", { name: /First name/ })).toHaveAttribute("href", "#billing-firstName");
      await expectAccessible(page, { javaScriptEnabled });
      await fillBillingInformation(page);
      await expectAccessible(page, { javaScriptEnabled });
      await page.getByRole("checkbox", { name: "I accept the terms of service" }).check();
      await page.getByRole("button", { name: "Pay now" }).click();

      await expect(page.getByRole("heading", { name: "Demo payment" })).toBeVisible();
      await page.getByRole("button", { name: /^Pay CHF\s*55\.50$/ }).click();
      await reachConfirmation(page);
      await expectAccessible(page, { javaScriptEnabled });
      await expect(page.getByRole("main")).toContainText("55.50");
    });
  });
}
