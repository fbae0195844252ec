// Issue 5 (docs/design.md §4 "Payments"): the buyer chooses to pay at a point of sale, sees where and the reference to
// quote; staff mark the invoice paid and the buyer's order is confirmed.

import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "../../fixtures.ts";
import {
  addArticle,
  asStaff,
  DEMO_EVENT_ID,
  expectAccessible,
  fillBillingInformation,
  guestOnBuyPage,
} from "./office.ts";

async function enablePointOfSale(request: APIRequestContext) {
  const moderator = await asStaff(request);
  await moderator.put(`/events/${DEMO_EVENT_ID}`, { is_point_of_sale_enabled: true });
  const places: { title: string }[] = await moderator.get(`/points-of-sale?filter={"event_id":${DEMO_EVENT_ID}}`);
  if (!places.some((place) => place.title === "Festival desk"))
    await moderator.post("/points-of-sale", {
      event_id: DEMO_EVENT_ID,
      title: "Festival desk",
      location: "Quai d'Ouchy, next to the pier",
      description: "Open every day from 10:00 to 18:00.",
    });
  return moderator;
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`point of sale with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a guest orders to pay on site; once staff record the payment the order is confirmed", async ({
      page,
      request,
    }) => {
      const moderator = await enablePointOfSale(request);
      await guestOnBuyPage(page);
      await addArticle(page, "Day pass");
      await page.getByRole("link", { name: "Checkout" }).click();
      await fillBillingInformation(page, "onsite@example.org");
      await page.getByRole("radio", { name: "Pay at a point of sale" }).check();
      await page.getByRole("checkbox", { name: "I accept the terms of service" }).check();
      await page.getByRole("button", { name: "Pay now" }).click();

      await expect(page).toHaveURL(/\/tickets\/demo\/payment\/pointofsale\/\d+$/);
      await expect(page.getByRole("heading", { name: "Pay at a point of sale" })).toBeVisible();
      await expect(page.getByText("Pay CHF 45.00 at one of the points of sale below")).toBeVisible();
      await expect(page.getByRole("listitem").filter({ hasText: "Festival desk" })).toContainText("next to the pier");
      const reference = (await page.locator(".reference-value").textContent())?.trim() ?? "";
      expect(reference).toMatch(/^[A-Z0-9]{6,}$/);
      await expectAccessible(page, { javaScriptEnabled });

      // The basket is being paid: buy leads to the payment step, which leads back here.
      await page.goto("/tickets/demo/buy");
      await expect(page).toHaveURL("/tickets/demo/checkout/payment-method");
      await page.getByRole("link", { name: "How to pay at a point of sale" }).click();
      await expect(page.locator(".reference-value")).toHaveText(reference);
      // Another payment's id is not this basket's.
      expect((await page.goto("/tickets/demo/payment/pointofsale/999999"))?.status()).toBe(404);

      // At the desk: staff find the basket by its reference and mark its invoice paid.
      const baskets: { id: number; unikey: string }[] = await moderator.get(
        `/baskets?filter={"event_id":${DEMO_EVENT_ID}}&range=[0,999]`,
      );
      const basket = baskets.find((candidate) => candidate.unikey === reference);
      expect(basket).toBeDefined();
      const detail = await moderator.get(`/baskets/${basket?.id}`);
      await moderator.post(`/invoices/${detail.payment_intents[0].invoice.id}/mark-paid`, {});

      await page.goto("/tickets/demo/payment/pointofsale/1");
      await expect(page).toHaveURL("/tickets/demo/completion");
      await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
    });
  });
}
