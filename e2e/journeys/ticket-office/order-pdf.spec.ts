// Issue 17: the completion page offers the whole order as one PDF, a ticket a page, beside each ticket alone; every
// page's QR code is read back as a phone at the door reads it, and admits.
import { downloaded, expect, test, ticketQrCodes } from "../../fixtures.ts";
import { addArticle, ensureDemoArticle, fillBillingInformation, guestOnBuyPage } from "./office.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the order's PDF with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a guest orders three tickets and downloads them as one PDF of three pages", async ({ page, request }) => {
      await ensureDemoArticle(request, { title: "Open rehearsal", price: 0, stock: 500 });
      await guestOnBuyPage(page);
      const basket = page.getByRole("complementary", { name: "Your basket" });
      await addArticle(page, "Open rehearsal");
      // Each add waits for the basket to show it: a second click while the first is on its way would replace it.
      for (const count of [2, 3]) {
        await addArticle(page, "Open rehearsal");
        await expect(basket).toContainText(`${count} × Open rehearsal`);
      }
      await basket.getByRole("link", { name: "Checkout" }).click();
      await fillBillingInformation(page, "three@example.org");
      await page.getByRole("checkbox", { name: "I accept the terms of service" }).check();
      await page.getByRole("button", { name: "Confirm order" }).click();
      await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
      await expect(page.getByRole("link", { name: /Download ticket/ })).toHaveCount(3);

      const downloading = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download all tickets (one PDF)" }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^tickets-[\w-]+\.pdf$/);
      const codes = ticketQrCodes(await downloaded(download));
      expect(codes).toHaveLength(3);
      const verdicts = await Promise.all(
        codes.map(async (code) =>
          (await request.get(`/api/v1/tickets/verify?code=${encodeURIComponent(code)}`)).json(),
        ),
      );
      expect(verdicts.map((verdict) => verdict.valid)).toEqual([true, true, true]);
      // Three tickets, not one ticket three times.
      expect(new Set(verdicts.map((verdict) => verdict.ticket.item_id)).size).toBe(3);
    });
  });
}
