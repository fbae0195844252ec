// DONE-WHEN (issue 14), quantities: a buyer takes 3 of an article in one step, changes the basket's line to 2 and
// pays for 2; the stock goes down by 2. With JavaScript off (plain forms), and on. On the way, each ticket's form
// field reads as its question, never its internal name.
import type { Page } from "@playwright/test";
import { expect, test, uniquePath } from "../fixtures.ts";
import {
  eventOnSale,
  fillBillingInformation,
  guestOnBuyPage,
  payOnDemoPage,
  remainingStock,
} from "./ticket-office/office.ts";

const PASS = "Day pass";

const basket = (page: Page) => page.getByRole("complementary", { name: "Your basket" });

for (const javaScriptEnabled of [false, true]) {
  test(`a buyer takes 3 day passes at once, changes the line to 2 and pays for 2 (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    openPage,
    request,
  }) => {
    const path = uniquePath(javaScriptEnabled ? "fair-js" : "fair");
    const { event } = await eventOnSale(
      request,
      {
        name: `Fair ${path}`,
        frontend_title: "Book Fair",
        frontend_path: path,
        start_date: "2030-05-05T09:00:00.000Z",
        end_date: "2030-05-05T18:00:00.000Z",
      },
      {
        articles: [{ title: PASS, price: 2000, stock: 10 }],
        prepare: async ({ event, articles: [pass], organiser }) => {
          const group = await organiser.post("/node-extra-info-groups", {
            event_id: event.id,
            name: "Visitor",
            node_configuration_ids: [pass.configuration.id],
          });
          await organiser.post("/node-extra-infos", {
            event_id: event.id,
            group_id: group.id,
            name: "birth",
            text: "Your date of birth",
            help_text: "As on your identity card",
            type: "date",
            is_required: true,
          });
        },
      },
    );

    const page = await openPage({ javaScriptEnabled });
    await guestOnBuyPage(page, `/tickets/${path}`);
    const article = page.getByRole("article", { name: PASS });
    const quantity = article.getByRole("spinbutton", { name: "Quantity" });
    await expect(quantity).toHaveValue("1");
    await expect(quantity).toHaveAttribute("max", "10");
    await quantity.fill("3");
    await article.getByRole("button", { name: "Add to basket" }).click();
    await expect(basket(page)).toContainText(`3 × ${PASS}`);
    await expect(basket(page)).toContainText("60.00");
    expect(await remainingStock(request, PASS, event.id)).toBe(7);
    // The field now offers what is left.
    await expect(page.getByRole("article", { name: PASS }).getByRole("spinbutton")).toHaveAttribute("max", "7");

    const line = basket(page).getByRole("spinbutton", { name: `Quantity of ${PASS}` });
    await expect(line).toHaveValue("3");
    await line.fill("2");
    await basket(page).getByRole("button", { name: "Update" }).click();
    await expect(basket(page)).toContainText(`2 × ${PASS}`);
    await expect(basket(page)).toContainText("40.00");
    expect(await remainingStock(request, PASS, event.id)).toBe(8);

    await page.getByRole("link", { name: "Checkout" }).click();
    const birthDates = page.getByLabel(/^Your date of birth/);
    await expect(birthDates).toHaveCount(2);
    await expect(birthDates.first()).toHaveAccessibleDescription("As on your identity card");
    await expect(page.getByLabel(/^birth/)).toHaveCount(0);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(
      page.getByRole("alert").getByRole("link", { name: /Your date of birth: This field is required/ }),
    ).toHaveCount(2);
    await birthDates.nth(0).fill("1990-02-03");
    await birthDates.nth(1).fill("1992-03-04");
    await page.getByRole("button", { name: "Continue" }).click();
    await fillBillingInformation(page, `fair-${path}@example.org`);
    await payOnDemoPage(page, "40.00");
    await expect(page.getByRole("main")).toContainText(`2 × ${PASS}`);
    expect(await remainingStock(request, PASS, event.id)).toBe(8);
  });
}
