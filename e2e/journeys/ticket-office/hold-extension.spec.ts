// DONE-WHEN (issue 33, WCAG 2.2.1 Timing Adjustable; docs/decisions/0042): a buyer sees until when their tickets are
// held on the buy page and the checkout's steps; near the end the page says so, and "Keep my tickets for 30 more
// minutes", a plain form button pressed with the keyboard, holds them 30 minutes from then, JavaScript off and on,
// as often as the event allows (10 by default); then the page says to finish before the end, and a renewal asked
// from a page loaded earlier is refused in words. The journey moves the basket's end near in the product's
// database instead of waiting 20 minutes (as waiting-list.spec.ts moves an offer's end).

import { join } from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import Database from "better-sqlite3";
import { expect, test, uniquePath } from "../../fixtures.ts";
import { dataDir } from "../../playwright.config.ts";
import { addArticle, eventOnSale, guestOnBuyPage } from "./office.ts";

const CONCERT = "Evening concert";
const KEEP = "Keep my tickets for 30 more minutes";
const MINUTE = 60_000;

/** The time as the ticket office writes it: the events' time zone, in English. */
const timeOf = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone: "Europe/Zurich" }).format(new Date(iso));

/** Reads or changes the event's one basket in the product's database: the clock the journey cannot wait for. */
function basketOf(eventId: number) {
  const open = () => new Database(join(dataDir, "ticketing.sqlite"), { timeout: 10_000 });
  return {
    read(): { expiresAt: string; holdRenewals: number } {
      const database = open();
      try {
        return database
          .prepare("select expires_at as expiresAt, hold_renewals as holdRenewals from baskets where event_id = ?")
          .get(eventId) as { expiresAt: string; holdRenewals: number };
      } finally {
        database.close();
      }
    },
    /** Sets the basket's end (and how many renewals it used): what the clock and earlier renewals would do. */
    move(fields: { endsIn?: number; holdRenewals?: number }) {
      const database = open();
      try {
        const basket = database
          .prepare("select id, expires_at, hold_renewals from baskets where event_id = ?")
          .get(eventId) as { id: number; expires_at: string; hold_renewals: number };
        const expiresAt =
          fields.endsIn === undefined ? basket.expires_at : new Date(Date.now() + fields.endsIn).toISOString();
        database
          .prepare("update baskets set expires_at = ?, hold_renewals = ? where id = ?")
          .run(expiresAt, fields.holdRenewals ?? basket.hold_renewals, basket.id);
        return expiresAt;
      } finally {
        database.close();
      }
    },
  };
}

/** The hold's box on the buy page or a checkout step. */
const holdBox = (page: Page) => page.getByRole("region", { name: "Your reservation" });

/** Presses the box's button from the keyboard: focus is moved to it, Enter (or Space) submits its form. */
async function keepWithKeyboard(page: Page, box: Locator, key: "Enter" | "Space") {
  const keep = box.getByRole("button", { name: KEEP });
  await keep.focus();
  await expect(keep).toBeFocused();
  await page.keyboard.press(key);
}

/** An event on sale at `path` with the concert ticket; it keeps the defaults: 30 minutes of reservation, 10 renewals. */
async function recitalOnSale(request: APIRequestContext, path: string) {
  const { event } = await eventOnSale(
    request,
    {
      name: `Keep ${path}`,
      frontend_title: "Autumn Recital",
      frontend_path: path,
      start_date: "2030-10-12T18:00:00.000Z",
      end_date: "2030-10-12T21:00:00.000Z",
    },
    { articles: [{ title: CONCERT, price: 2500, stock: 10 }] },
  );
  return event;
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`hold extension with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a buyer warned that their hold ends soon keeps their tickets longer, until the renewals are used", async ({
      page,
      request,
    }) => {
      const path = uniquePath(javaScriptEnabled ? "keep-js" : "keep");
      const event = await recitalOnSale(request, path);
      const basket = basketOf(event.id);
      const base = `/tickets/${path}`;
      await guestOnBuyPage(page, base);
      await addArticle(page, CONCERT);

      // Far from the end: the end time and the button, no warning.
      const box = holdBox(page);
      await expect(box).toContainText(`Your tickets are held for you until ${timeOf(basket.read().expiresAt)}.`);
      await expect(box).toContainText("You can do this 10 more times.");
      await expect(box.getByRole("alert")).toHaveText("");

      // Five minutes left: the page says so, and the keyboard keeps the tickets 30 minutes from now.
      const nearEnd = basket.move({ endsIn: 5 * MINUTE });
      await page.reload();
      await expect(box.getByRole("alert")).toHaveText(`Your reservation ends soon, at ${timeOf(nearEnd)}.`);
      const asked = Date.now();
      await keepWithKeyboard(page, box, "Enter");
      await expect(page).toHaveURL(`${base}/buy`);
      await expect(box).toContainText("You can do this 9 more times.");
      const kept = basket.read();
      expect(kept.holdRenewals).toBe(1);
      expect(Date.parse(kept.expiresAt)).toBeGreaterThanOrEqual(asked + 29 * MINUTE);
      await expect(box).toContainText(`Your tickets are held for you until ${timeOf(kept.expiresAt)}.`);
      await expect(box.getByRole("alert")).toHaveText("");

      // On a checkout step too (no form to answer: billing information), with Space this time.
      await page.getByRole("link", { name: "Checkout" }).click();
      await expect(page.getByRole("heading", { name: "Billing information" })).toBeVisible();
      const stepEnd = basket.move({ endsIn: 2 * MINUTE });
      await page.reload();
      await expect(box.getByRole("alert")).toHaveText(`Your reservation ends soon, at ${timeOf(stepEnd)}.`);
      await keepWithKeyboard(page, box, "Space");
      await expect(page).toHaveURL(`${base}/checkout/billing-information`);
      await expect(box).toContainText("You can do this 8 more times.");
      expect(basket.read().holdRenewals).toBe(2);

      // One renewal left: the last one, then the page says to finish in time.
      basket.move({ endsIn: 3 * MINUTE, holdRenewals: 9 });
      await page.reload();
      await expect(box).toContainText("You can do this 1 more time.");
      await box.getByRole("button", { name: KEEP }).click();
      await expect(box.getByRole("button", { name: KEEP })).toHaveCount(0);
      const last = basket.read();
      expect(last.holdRenewals).toBe(10);
      await expect(box).toContainText(
        "You have kept your tickets longer as many times as this event allows: " +
          `finish your order before ${timeOf(last.expiresAt)} to keep them.`,
      );

      // A page loaded while one was left, its renewal used meanwhile (another tab): refused in words, not a 500.
      basket.move({ holdRenewals: 9 });
      await page.reload();
      basket.move({ holdRenewals: 10 });
      const refused = page.waitForResponse((response) => response.request().method() === "POST");
      await box.getByRole("button", { name: KEEP }).click();
      expect((await refused).status()).toBe(409);
      await expect(page.getByText("You have already kept your tickets longer 10 times")).toBeVisible();
      await expect(page.getByRole("heading", { name: "Billing information" })).toBeVisible();
    });

    if (javaScriptEnabled)
      test("the warning comes when the end nears, without a reload", async ({ page, request }) => {
        const path = uniquePath("keep-live");
        const event = await recitalOnSale(request, path);
        await guestOnBuyPage(page, `/tickets/${path}`);
        await addArticle(page, CONCERT);
        // The warning starts 10 minutes before the end: a few seconds from now.
        const end = basketOf(event.id).move({ endsIn: 10 * MINUTE + 4_000 });
        await page.reload();
        const warning = holdBox(page).getByRole("alert");
        await expect(warning).toHaveText("");
        await expect(warning).toHaveText(`Your reservation ends soon, at ${timeOf(end)}.`, { timeout: 15_000 });
      });
  });
}
