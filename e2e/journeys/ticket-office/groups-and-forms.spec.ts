// Issue 5: an article with groups of options (a single choice and a ranged multiple choice) and a form with
// every field type of docs/specification.md §9, bought with JavaScript off and on.
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "../../fixtures.ts";
import {
  asStaff,
  DEMO_EVENT_ID,
  expectAccessible,
  fillBillingInformation,
  guestOnBuyPage,
  payOnDemoPage,
} from "./office.ts";

const ARTICLE = "Camping pass";

/** Builds the camping pass once through the element-tree resources, as the moderator. */
async function ensureCampingPass(request: APIRequestContext) {
  const moderator = await asStaff(request);
  const event_id = DEMO_EVENT_ID;
  const articles: { title: string }[] = await moderator.get(`/events/${event_id}/articles`);
  if (articles.some((article) => article.title === ARTICLE)) return;
  const { node, configuration } = await moderator.post(`/events/${event_id}/articles`, {
    title: ARTICLE,
    price: 3000,
    stock: 50,
  });
  const addNode = async (parent_id: number, category: string, title: string, range?: [number, number | null]) => {
    const config = await moderator.post("/node-configurations", { event_id, category, title });
    const cart = await moderator.post("/node-cart-configurations", {
      event_id,
      ...(range ? { range_min: range[0], range_max: range[1] } : {}),
    });
    return moderator.post("/nodes", {
      event_id,
      parent_id,
      configuration_id: config.id,
      cart_configuration_id: cart.id,
    });
  };
  const pitch = await addNode(node.id, "single_choice", "Pitch", [1, 1]);
  for (const title of ["Tent", "Campervan"]) await addNode(pitch.id, "option", title);
  const extras = await addNode(node.id, "multiple_choice", "Extras", [0, 2]);
  for (const title of ["Shower", "Firewood", "Bike rack"]) await addNode(extras.id, "option", title);

  const group = await moderator.post("/node-extra-info-groups", {
    event_id,
    name: "Camper",
    is_required: true,
    node_configuration_ids: [configuration.id],
  });
  const fields: [string, string, boolean, string[]?][] = [
    ["choice", "Diet", true, ["Vegetarian", "Vegan", "Anything"]],
    ["country", "Nationality", true],
    ["date", "Arrival", true],
    ["dateMajor", "Birth date", true],
    ["datetime", "Check-in", true],
    ["email", "Contact email", true],
    ["numerical", "Group size", true],
    ["phone", "Mobile", true],
    ["text", "Car plate", true],
    ["textarea", "Remarks", false],
    ["boolean", "I accept the camp rules", true],
  ];
  for (const [index, [type, name, is_required, choices]] of fields.entries())
    await moderator.post("/node-extra-infos", {
      event_id,
      group_id: group.id,
      name,
      type,
      is_required,
      order: index,
      choices_json: choices ?? null,
    });
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`groups and forms with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a guest chooses within the groups' ranges and fills in the camper form", async ({ page, request }) => {
      await ensureCampingPass(request);
      await guestOnBuyPage(page);
      const pass = page.getByRole("article", { name: ARTICLE });
      const pitch = pass.getByRole("group", { name: "Pitch" });
      const extras = pass.getByRole("group", { name: "Extras" });
      await expect(pitch).toContainText("Choose 1");
      await expect(extras).toContainText("Choose up to 2");
      await expect(pitch.getByRole("radio")).toHaveCount(2);
      // "Choose 1": the browser asks for the pitch before posting.
      await expect(pitch.getByRole("radio", { name: /Tent/ })).toHaveAttribute("required", "");
      await expect(extras.getByRole("checkbox")).toHaveCount(3);
      await expectAccessible(page, { javaScriptEnabled });

      // Three extras are one too many: the API refuses, the message is shown beside the article.
      await pitch.getByRole("radio", { name: /Tent/ }).check();
      for (const extra of ["Shower", "Firewood", "Bike rack"])
        await extras.getByRole("checkbox", { name: new RegExp(extra) }).check();
      await pass.getByRole("button", { name: "Add to basket" }).click();
      await expect(pass.getByRole("alert")).toHaveText("Choose less in this group");

      // Without JavaScript the page comes back unticked, with JavaScript the choice stays: set every box.
      await pass.getByRole("group", { name: "Pitch" }).getByRole("radio", { name: /Tent/ }).check();
      for (const [extra, checked] of [
        ["Shower", true],
        ["Firewood", true],
        ["Bike rack", false],
      ] as const)
        await pass
          .getByRole("group", { name: "Extras" })
          .getByRole("checkbox", { name: new RegExp(extra) })
          .setChecked(checked);
      await pass.getByRole("button", { name: "Add to basket" }).click();
      const basket = page.getByRole("complementary", { name: "Your basket" });
      for (const text of [ARTICLE, "Tent", "Shower", "Firewood"]) await expect(basket).toContainText(text);
      await expect(basket).not.toContainText("Bike rack");

      // The forms step comes first.
      await basket.getByRole("link", { name: "Checkout" }).click();
      await expect(page).toHaveURL("/tickets/demo/checkout/forms");
      await expect(page.getByRole("group", { name: `Ticket 1: ${ARTICLE}` })).toBeVisible();
      await page.getByLabel("Birth date").fill("2015-05-01");
      await page.getByLabel("Mobile").fill("12");
      await page.getByRole("button", { name: "Continue" }).click();
      const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
      await expect(summary.getByRole("link", { name: /Diet: This field is required/ })).toHaveAttribute(
        "href",
        /^#answer-\d+-\d+$/,
      );
      await expect(summary).toContainText("at least 18");
      await expect(summary).toContainText("Field requires a valid phone number");
      await expect(page.getByLabel("Mobile")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Mobile")).toHaveAccessibleDescription("Field requires a valid phone number");
      await expect(page.getByLabel("Birth date")).toHaveValue("2015-05-01"); // kept after the refusal
      await expectAccessible(page, { javaScriptEnabled });
      // The summary's link leads to the field.
      await summary.getByRole("link", { name: /Mobile/ }).click();
      await expect(page).toHaveURL(/#answer-\d+-\d+$/);

      await page.getByLabel("Diet").selectOption("Vegan");
      await page.getByLabel("Nationality").selectOption({ label: "Switzerland" });
      await page.getByLabel("Arrival").fill("2027-06-12");
      await page.getByLabel("Birth date").fill("1990-02-03");
      await page.getByLabel("Check-in").fill("2027-06-12T15:30");
      await page.getByLabel("Contact email").fill("camper@example.org");
      await page.getByLabel("Group size").fill("3");
      await page.getByLabel("Mobile").fill("+41 79 123 45 67");
      await page.getByLabel("Car plate").fill("VD 12345");
      await page.getByLabel("Remarks").fill("Near the lake, please.");
      await page.getByRole("checkbox", { name: /I accept the camp rules/ }).check();
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("heading", { name: "Billing information" })).toBeVisible();

      // Going back shows the answers again.
      await page.goto("/tickets/demo/checkout/forms");
      await expect(page.getByLabel("Diet")).toHaveValue("Vegan");
      await expect(page.getByLabel("Nationality")).toHaveValue("CH");
      await expect(page.getByLabel("Check-in")).toHaveValue("2027-06-12T15:30");
      await expect(page.getByLabel("Remarks")).toHaveValue("Near the lake, please.");
      await expect(page.getByRole("checkbox", { name: /I accept the camp rules/ })).toBeChecked();
      await page.getByRole("button", { name: "Continue" }).click();

      await fillBillingInformation(page, "camper@example.org");
      await payOnDemoPage(page, "30.00");
    });
  });
}
