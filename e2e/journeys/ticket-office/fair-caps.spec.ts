// Issue 30 (docs/decisions/0036): an event caps the tickets per buyer; a buyer with JavaScript off who asks the buy
// page for more than the cap is told why and how many they may still add, in English and in French.
import { expect, test } from "../../fixtures.ts";
import { eventOnSale, guestOnBuyPage } from "./office.ts";

test.use({ javaScriptEnabled: false });

/** An event on sale whose buyers may hold at most two tickets each. */
async function cappedEvent(request: Parameters<typeof eventOnSale>[0], language: string) {
  const path = `fair-caps-${language}-${Date.now()}`;
  await eventOnSale(
    request,
    {
      name: `Caps ${path}`,
      frontend_title: "Fair Festival",
      frontend_path: path,
      start_date: "2030-06-01T18:00:00.000Z",
      end_date: "2030-06-01T23:00:00.000Z",
    },
    { articles: [{ title: "Entry", price: 2000, stock: 100 }], settings: { max_tickets_per_buyer: 2 } },
  );
  return `/tickets/${path}`;
}

test("a buyer asking for more tickets than the cap is told the most they may add, then that they reached it", async ({
  page,
  request,
}) => {
  const base = await cappedEvent(request, "en");
  await guestOnBuyPage(page, base);
  const entry = page.getByRole("article", { name: "Entry" });
  await entry.getByLabel("Quantity").fill("3");
  await entry.getByRole("button", { name: "Add to basket" }).click();
  await expect(page.getByText("You can have at most 2 tickets for this event: you can add 2 more")).toBeVisible();
  const basket = page.getByRole("complementary", { name: "Your basket" });
  await expect(basket).not.toContainText("Entry");

  await page.getByRole("article", { name: "Entry" }).getByLabel("Quantity").fill("2");
  await page.getByRole("article", { name: "Entry" }).getByRole("button", { name: "Add to basket" }).click();
  await expect(basket).toContainText("Entry");
  await page.getByRole("article", { name: "Entry" }).getByRole("button", { name: "Add to basket" }).click();
  await expect(
    page.getByText("You can have at most 2 tickets for this event, in all your orders together"),
  ).toBeVisible();
});

test("the refusal in French", async ({ page, request }) => {
  const base = await cappedEvent(request, "fr");
  await page.goto(base);
  await page.getByRole("button", { name: "Français" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await page.getByRole("link", { name: "Acheter des billets" }).click();
  await page.getByRole("button", { name: "Continuer en tant qu'invité" }).click();
  await expect(page.getByRole("heading", { name: "Choisissez vos billets" })).toBeVisible();
  const entry = page.getByRole("article", { name: "Entry" });
  await entry.getByLabel("Quantité").fill("5");
  await entry.getByRole("button", { name: "Ajouter au panier" }).click();
  await expect(
    page.getByText("Vous pouvez avoir au plus 2 billets pour cet événement : vous pouvez encore en ajouter 2"),
  ).toBeVisible();
});
