// Issue 5 (docs/specification.md §2.3 "completion"): the confirmation page shows the organiser's text, or sends the
// buyer on to the organiser's page, beside the ticket downloads.
import { expect, MODERATOR, test } from "../../fixtures.ts";
import {
  addArticle,
  asStaff,
  DEMO_EVENT_ID,
  ensureDemoArticle,
  fillBillingInformation,
  guestOnBuyPage,
} from "./office.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`confirmation page with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("after a free order the buyer reads the organiser's text and may go on to their page", async ({
      page,
      request,
    }) => {
      const staff = await asStaff(request, MODERATOR);
      await staff.put(`/events/${DEMO_EVENT_ID}/communication`, {
        confirmation_page_text_en: "Doors open at 17:00.\n\nBring this ticket on your phone.",
        confirmation_redirect_url: "https://example.org/jazz",
      });
      await ensureDemoArticle(request, { title: "Open rehearsal", price: 0, stock: 500 });
      await guestOnBuyPage(page);
      await addArticle(page, "Open rehearsal");
      await page.getByRole("complementary", { name: "Your basket" }).getByRole("link", { name: "Checkout" }).click();
      await fillBillingInformation(page, "text@example.org");
      await page.getByRole("checkbox", { name: "I accept the terms of service" }).check();
      await page.getByRole("button", { name: "Confirm order" }).click();
      await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
      await expect(page.getByText("Doors open at 17:00.")).toBeVisible();
      await expect(page.getByText("Bring this ticket on your phone.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Continue to the organiser's page" })).toHaveAttribute(
        "href",
        "https://example.org/jazz",
      );
      await expect(page.getByRole("link", { name: /Download ticket/ })).toBeVisible();
      await staff.put(`/events/${DEMO_EVENT_ID}/communication`, {
        confirmation_page_text_en: null,
        confirmation_redirect_url: null,
      });
    });
  });
}
