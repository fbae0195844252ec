// Issue 28 #5 (docs/decisions/0032): an organiser makes a group's "+5 (applies to the elements below)" before a
// child's "Set the price to 20". The child's panel lists both rules in the order they are applied, the
// inherited one marked, with the price after each step, and warns that the +5 has no effect and why; moving the
// set rule up makes the price 25, in the editor, in its price preview and for buyers. In French too.
import type { Locator, Page } from "@playwright/test";
import { expect, ORGANISER, test, uniquePath } from "../fixtures.ts";
import { addElement, asStaff, createEventThroughApi, dialog, signInToBackOffice } from "./ticket-office/office.ts";

async function addPriceRule(page: Page, rule: { label: string; operation: string; field: string; value: string }) {
  await page.getByRole("button", { name: "New: Price rule" }).click();
  const opened = await dialog(page);
  await opened.getByRole("textbox", { name: "Rule label", exact: true }).fill(rule.label);
  await opened.getByRole("combobox", { name: "Operation" }).click();
  await page.getByRole("option", { name: rule.operation, exact: true }).click();
  await opened.getByRole("textbox", { name: rule.field }).fill(rule.value);
  return opened;
}

async function save(opened: Locator) {
  await opened.getByRole("button", { name: /^(Save|Enregistrer)$/ }).click();
  await expect(opened).toBeHidden();
}

test("an organiser sees a group's surcharge overridden by a child's set price, moves the rule and sees the price change", async ({
  openPage,
}) => {
  const organiser = await asStaff((await openPage()).request, ORGANISER);
  const event = await createEventThroughApi(organiser, {
    name: "Rule order (internal)",
    frontend_title: "Rule order",
    frontend_path: uniquePath("rule-order"),
    start_date: "2030-07-01T18:00:00.000Z",
    end_date: "2030-07-01T23:00:00.000Z",
  });
  const admin = await openPage({ viewport: { width: 1400, height: 1000 } });
  await signInToBackOffice(admin);
  await admin.goto(`/admin/events/${event.id}/edit`);
  await admin.getByRole("tab", { name: "Configuration" }).click();
  const tree = admin.getByRole("list", { name: "Elements" });
  await expect(tree).toBeVisible();

  // The group's +5 for everything below it, made first.
  await addElement(admin, "Rule order", "Multiple-choice group", "Tickets");
  const fee = await addPriceRule(admin, { label: "Service fee", operation: "Add", field: "Amount (CHF)", value: "5" });
  await fee.getByRole("checkbox", { name: "Applies to the elements below" }).check();
  await save(fee);
  // The child's own price, made after it.
  await addElement(admin, "Tickets", "Article", "Adult");
  await save(
    await addPriceRule(admin, {
      label: "Adult price",
      operation: "Set the price to",
      field: "Price (CHF)",
      value: "20",
    }),
  );

  // The child's panel: both rules, as applied, the inherited one marked, and why the +5 does nothing.
  const rules = admin.getByRole("list", { name: "Price rules" });
  const items = rules.getByRole("listitem");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText("Service fee");
  await expect(items.nth(0)).toContainText("Add CHF 5.00 · inherited from “Tickets”");
  await expect(items.nth(0).getByLabel("Price after Service fee: CHF 5.00")).toBeVisible();
  await expect(items.nth(0).getByRole("alert")).toHaveText(
    "No effect: “Adult price” comes after it and sets the price. Move this rule below it, or that one above it.",
  );
  await expect(items.nth(1)).toContainText("Adult price");
  await expect(items.nth(1).getByLabel("Price after Adult price: CHF 20.00")).toBeVisible();
  await expect(items.nth(1).getByRole("alert")).toHaveCount(0);
  await expect(admin.getByText("Base price: CHF 20.00")).toBeVisible();
  await expect(tree.getByLabel("Price of Adult")).toHaveText("CHF 20.00");
  const marked = tree.getByRole("img", { name: "A price rule has no effect on Adult: see its price rules" });
  await expect(marked).toBeVisible();
  // The inherited rule is the group's: it can be moved and edited here, not removed from this element.
  await expect(items.nth(0).getByRole("button", { name: "Remove Service fee from this element" })).toHaveCount(0);
  await expect(admin.getByRole("button", { name: "Move Service fee up" })).toBeDisabled();
  await admin.screenshot({ path: test.info().outputPath("price-rule-order-en-overridden.png"), fullPage: true });

  // The group's panel names the element below where its rule has no effect.
  await tree.getByRole("button", { name: /^Tickets/ }).click();
  await expect(admin.getByRole("heading", { name: "Element: Tickets" })).toBeVisible();
  await expect(rules.getByRole("alert")).toHaveText(
    "No effect on “Adult”: “Adult price” comes after it there and sets the price.",
  );

  // The set price moves up: the +5 now counts.
  await tree.getByRole("button", { name: /^Adult/ }).click();
  await expect(admin.getByRole("heading", { name: "Element: Adult" })).toBeVisible();
  await admin.getByRole("button", { name: "Move Adult price up" }).click();
  await expect(items.nth(0)).toContainText("Adult price");
  await expect(items.nth(0).getByLabel("Price after Adult price: CHF 20.00")).toBeVisible();
  await expect(items.nth(1).getByLabel("Price after Service fee: CHF 25.00")).toBeVisible();
  await expect(rules.getByRole("alert")).toHaveCount(0);
  await expect(admin.getByText("Base price: CHF 25.00")).toBeVisible();
  await expect(tree.getByLabel("Price of Adult")).toHaveText("CHF 25.00");
  await expect(marked).toHaveCount(0);
  await admin.screenshot({ path: test.info().outputPath("price-rule-order-en-moved.png"), fullPage: true });

  // The server prices it so: the editor's price preview, as the ticket office would.
  await admin.getByRole("button", { name: "Show the prices" }).click();
  const preview = admin.getByRole("table", { name: "Prices for this visitor" });
  await expect(preview.getByRole("row").filter({ hasText: "Adult" })).toContainText("25.00");

  // In French: the same list, moved back down, and the warning in French.
  const french = await openPage({ locale: "fr-CH", viewport: { width: 1400, height: 1000 } });
  await signInToBackOffice(french);
  await french.goto(`/admin/events/${event.id}/edit`);
  await french.getByRole("tab", { name: "Configuration" }).click();
  await french
    .getByRole("list", { name: "Éléments" })
    .getByRole("button", { name: /^Adult/ })
    .click();
  const règles = french.getByRole("list", { name: "Règles de prix" });
  await expect(règles.getByRole("listitem").nth(1)).toContainText("Ajouter 5.00 CHF · héritée de « Tickets »");
  await french.getByRole("button", { name: "Descendre Adult price" }).click();
  await expect(règles.getByRole("listitem").nth(0).getByRole("alert")).toHaveText(
    "Sans effet : « Adult price » vient après elle et fixe le prix. Placez cette règle en dessous, ou celle-là au-dessus.",
  );
  await expect(french.getByText("Prix de base : 20.00 CHF")).toBeVisible();
  await french.screenshot({ path: test.info().outputPath("price-rule-order-fr-overridden.png"), fullPage: true });
});
