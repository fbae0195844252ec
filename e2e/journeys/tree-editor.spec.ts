// DONE-WHEN (issue 4): an organiser builds, through the admin only, a tree with a single-choice group of two
// articles sharing one stock of 2, an option with a price, a 20 % discount conditioned on a promotion code, an
// article visible only to emails of @example.org and a form with a required date-of-birth-with-majority field;
// a buyer then sees exactly the expected elements and prices, with and without the code, and the third ticket
// is refused.
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, mailLinks, test, typeDateTime, uniquePath } from "../fixtures.ts";
import { dataDir } from "../playwright.config.ts";
import {
  addElement,
  approveThroughApi,
  dialog,
  saveBackOfficeForm,
  signInToBackOffice,
} from "./ticket-office/office.ts";

const PASS = "Festival pass";
const DAY = "Day pass";
const WEEKEND = "Weekend pass";
const LUNCH = "Lunch";
const DINNER = "Members' dinner";

async function pick(page: Page, scope: Locator, combobox: string, option: string) {
  await scope.getByRole("combobox", { name: combobox }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

async function saveDialog(opened: Locator) {
  await opened.getByRole("button", { name: "Save", exact: true }).click();
  await expect(opened).toBeHidden(); // it closes once the API accepted every write
}

async function select(page: Page, title: string) {
  await page
    .getByRole("list", { name: "Elements" })
    .getByRole("button", { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) })
    .click();
  await expect(page.getByRole("heading", { name: `Element: ${title}` })).toBeVisible();
}

async function addPriceRule(page: Page, label: string, operation: string, value: string) {
  await page.getByRole("button", { name: "New: Price rule" }).click();
  const opened = await dialog(page);
  await opened.getByRole("textbox", { name: "Rule label", exact: true }).fill(label);
  await pick(page, opened, "Operation", operation);
  await opened
    .getByRole("textbox", { name: operation === "Set the price to" ? "Price (CHF)" : "Percentage" })
    .fill(value);
  return opened;
}

interface BuyerNode {
  title: string;
  category: string;
  article_calculated_price: number | null;
  option_calculated_price: number | null;
  children: BuyerNode[];
}

const flatten = (node: BuyerNode): BuyerNode[] => [node, ...node.children.flatMap(flatten)];

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Issue 14: on every row of the tree that shows a price, the price and each of the row's buttons are apart. */
async function expectPricesClearOfButtons(tree: Locator) {
  let priced = 0;
  for (const row of await tree.getByRole("listitem").all()) {
    const price = row.getByLabel(/^Price of /);
    if ((await price.count()) === 0) continue;
    priced += 1;
    const priceBox = await price.boundingBox();
    expect(priceBox).not.toBeNull();
    const buttons = await row.getByRole("button", { name: /^(Add to|Move|Duplicate|Delete) / }).all();
    expect(buttons.length).toBeGreaterThanOrEqual(4);
    for (const button of buttons) {
      const buttonBox = await button.boundingBox();
      expect(buttonBox).not.toBeNull();
      expect(
        overlap(priceBox as Box, buttonBox as Box),
        `${await price.textContent()} over "${await button.getAttribute("aria-label")}"`,
      ).toBe(false);
    }
  }
  expect(priced).toBe(4);
}

async function buyerTree(api: APIRequestContext, eventId: number, token: string, basketId?: number) {
  const query = basketId ? `?basket_id=${basketId}` : "";
  const answer = await api.get(`/api/v1/frontend/events/${eventId}/tree${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status()).toBe(200);
  const nodes = flatten((await answer.json()).root as BuyerNode).slice(1);
  return Object.fromEntries(
    nodes.map((node) => [node.title, node.article_calculated_price ?? node.option_calculated_price]),
  );
}

test("an organiser builds a tree in the editor; buyers see its elements and prices, the third ticket is refused", async ({
  openPage,
}) => {
  const path = uniquePath("editor");
  const admin = await openPage();
  const api = admin.request;

  await signInToBackOffice(admin);
  await admin.getByRole("link", { name: "Create" }).click();
  await admin.getByRole("textbox", { name: "Private name", exact: true }).fill("Summer festival (internal)");
  await admin.getByRole("textbox", { name: "Public name", exact: true }).fill("Summer Festival");
  await admin.getByRole("textbox", { name: "Ticket office path", exact: true }).fill(path);
  await typeDateTime(admin, "Start", "07012030 0600PM");
  await typeDateTime(admin, "End", "07012030 1100PM");
  await admin.getByRole("button", { name: /^save$/i }).click();
  await expect(admin.getByRole("tab", { name: "Display" })).toHaveAttribute("aria-selected", "true");
  const eventId = Number(admin.url().match(/events\/(\d+)/)?.[1]);

  // Sign-in settings: trusted-email logins too (the members' article is for @example.org addresses).
  await admin.goto(`/admin/events/${eventId}/settings/auth`);
  await admin.getByRole("checkbox", { name: "Trusted email" }).check();
  await admin.getByRole("button", { name: "Save", exact: true }).click();
  await expect(admin.getByRole("button", { name: "Save", exact: true })).toBeDisabled();

  await admin.goto(`/admin/events/${eventId}/edit`);
  await admin.getByRole("tab", { name: "Configuration" }).click();
  const tree = admin.getByRole("list", { name: "Elements" });
  await expect(tree).toBeVisible();
  const rootTitle = "Summer Festival"; // the root element is titled after the public name

  // A single-choice group of two articles sharing one stock of 2.
  await addElement(admin, rootTitle, "Single-choice group", PASS);
  await addElement(admin, PASS, "Article", DAY);
  await admin.getByRole("button", { name: "New: Stock" }).click();
  let opened = await dialog(admin);
  await opened.getByRole("textbox", { name: "Stock label", exact: true }).fill("Passes");
  await opened.getByRole("textbox", { name: "Maximum" }).fill("2");
  await saveDialog(opened);
  await expect(admin.getByRole("list", { name: "Stocks" })).toContainText("maximum 2");
  await saveDialog(await addPriceRule(admin, "Day price", "Set the price to", "40.00"));
  // 20 % off with the promotion code EARLY.
  opened = await addPriceRule(admin, "Early bird", "Subtract a percentage", "20");
  await opened.getByRole("button", { name: "Add a statement" }).click();
  await expect(opened.getByRole("combobox", { name: "Statement 1: subject" })).toContainText("Promotion code");
  await expect(opened.getByRole("combobox", { name: "Statement 1: comparison" })).toContainText("equal to");
  await opened.getByRole("textbox", { name: "Statement 1: value" }).fill("EARLY");
  await saveDialog(opened);
  await expect(admin.getByRole("list", { name: "Price rules" })).toContainText("Early bird");
  // The form: a required date of birth with majority on the event's date.
  await admin.getByRole("button", { name: "New: Form" }).click();
  opened = await dialog(admin);
  await opened.getByRole("textbox", { name: "Form name", exact: true }).fill("Attendee");
  await opened.getByRole("checkbox", { name: "Required" }).check();
  await saveDialog(opened);
  await admin.getByRole("button", { name: "Add a field to Attendee" }).click();
  opened = await dialog(admin);
  await opened.getByRole("textbox", { name: "Field name", exact: true }).fill("Date of birth");
  await pick(admin, opened, "Field type", "Date of birth (majority)");
  await expect(opened.getByRole("textbox", { name: "Minimum age" })).toHaveValue("18");
  await opened.getByRole("checkbox", { name: "Required field" }).check();
  await saveDialog(opened);
  await expect(admin.getByRole("list", { name: "Fields of Attendee" })).toContainText("Date of birth (majority)");

  // An option with a price under the day pass.
  await addElement(admin, DAY, "Option", LUNCH);
  await saveDialog(await addPriceRule(admin, "Lunch price", "Set the price to", "15.00"));

  // The second article shares the stock of the first.
  await addElement(admin, PASS, "Article", WEEKEND);
  await saveDialog(await addPriceRule(admin, "Weekend price", "Set the price to", "70.00"));
  const stocks = admin.getByRole("region", { name: "Stocks" });
  await pick(admin, stocks, "Share an existing one: Stock", "Passes");
  await stocks.getByRole("button", { name: "Share: Stock" }).click();
  await expect(admin.getByRole("list", { name: "Stocks" })).toContainText("shared by 2 elements");

  // The group's range is checked by the API: three of two children cannot be chosen.
  await select(admin, PASS);
  await admin.getByRole("textbox", { name: "Minimum" }).fill("3");
  await admin.getByRole("button", { name: "Save the element" }).click();
  await expect(admin.getByText("Chosen range cannot be fulfilled")).toBeVisible();
  await admin.getByRole("textbox", { name: "Minimum" }).fill("1");
  await admin.getByRole("button", { name: "Save the element" }).click();
  await expect(admin.getByText("Chosen range cannot be fulfilled")).toBeHidden();

  // An article only @example.org addresses see.
  await addElement(admin, rootTitle, "Article", DINNER);
  await saveDialog(await addPriceRule(admin, "Dinner price", "Set the price to", "50.00"));
  await admin.getByRole("button", { name: "New: Access" }).click();
  opened = await dialog(admin);
  await opened.getByRole("textbox", { name: "Access label", exact: true }).fill("Members only");
  await expect(opened.getByRole("checkbox", { name: "Accessible when the condition holds" })).toBeChecked();
  await opened.getByRole("button", { name: "Add a statement" }).click();
  await pick(admin, opened, "Statement 1: subject", "User email");
  await pick(admin, opened, "Statement 1: comparison", "matches the domain");
  await opened.getByRole("textbox", { name: "Statement 1: value" }).fill("@example.org");
  await saveDialog(opened);
  // On sale from a past day: the dialog's dates are the back office's date-time inputs (typed in English here).
  await admin.getByRole("button", { name: "New: Availability" }).click();
  opened = await dialog(admin);
  await opened.getByRole("textbox", { name: "Availability name", exact: true }).fill("Dinner sales");
  await typeDateTime(admin, "From", "01012025 0900AM");
  await typeDateTime(admin, "To", "12312030 1100PM");
  await saveDialog(opened);
  await admin.getByRole("button", { name: "Edit Dinner sales" }).click();
  opened = await dialog(admin);
  await expect(opened.getByRole("group", { name: "From", exact: true })).toContainText(/01.*01.*2025.*09.*00.*AM/);
  await expect(opened.getByRole("group", { name: "To", exact: true })).toContainText(/12.*31.*2030.*11.*00.*PM/);
  await opened.getByRole("button", { name: "Cancel" }).click();
  await expect(opened).toBeHidden();

  // The promotion code, and the tree's base prices.
  await admin.getByRole("textbox", { name: "Reference name" }).fill("Early bird");
  await admin.getByRole("textbox", { name: "Code", exact: true }).fill("EARLY");
  await admin.getByRole("button", { name: "Add the code" }).click();
  await expect(admin.getByRole("cell", { name: "EARLY", exact: true })).toBeVisible();
  await expect(tree.getByRole("listitem").filter({ hasText: DAY })).toContainText("40.00");
  await expect(tree.getByRole("listitem").filter({ hasText: WEEKEND })).toContainText("70.00");
  await expect(tree.getByRole("listitem").filter({ hasText: LUNCH })).toContainText("15.00");
  await expect(tree.getByRole("listitem").filter({ hasText: DINNER })).toContainText("50.00");
  // The rows' prices stay clear of their buttons at the usual desktop sizes (screenshots in test-results).
  for (const [width, height] of [
    [1400, 900],
    [1920, 1080],
  ] as const) {
    await admin.setViewportSize({ width, height });
    await admin.screenshot({ path: test.info().outputPath(`tree-editor-${width}x${height}.png`), fullPage: true });
    await expectPricesClearOfButtons(tree);
  }

  // The editor's price preview for a member with the code.
  await admin.getByRole("textbox", { name: "Visitor's email" }).fill("ann@example.org");
  await admin.getByRole("textbox", { name: "Promotion codes" }).fill("EARLY");
  await admin.getByRole("button", { name: "Show the prices" }).click();
  const preview = admin.getByRole("table", { name: "Prices for this visitor" });
  await expect(preview.getByRole("row").filter({ hasText: DAY })).toContainText("32.00");
  await expect(preview.getByRole("row").filter({ hasText: DINNER })).toContainText("50.00");

  // Going public: moderation through the API (issue 3's journey covers its screens), status in the UI.
  await approveThroughApi(api, eventId);
  await admin.goto(`/admin/events/${eventId}/settings/status`);
  await admin.getByRole("combobox", { name: "Status" }).click();
  await admin.getByRole("option", { name: "Public" }).click();
  await saveBackOfficeForm(admin);

  // The buyer. The storefront shows the groups; the prices with a code and the email-restricted article depend
  // on storefront work in progress (promotion codes in groups, trusted-email login), so they are asserted
  // through the buyer's API tree as well.
  const buyer = await openPage();
  await buyer.goto(`/tickets/${path}/buy`);
  await buyer.getByRole("button", { name: "Continue as guest" }).click();
  await expect(buyer.getByRole("heading", { name: "Choose your tickets" })).toBeVisible();
  await expect(buyer.getByText(DAY).first()).toBeVisible();
  await expect(buyer.getByText(WEEKEND).first()).toBeVisible();
  await expect(buyer.getByText(DINNER)).toHaveCount(0);

  const moduleId = (await (await api.get(`/api/v1/events/public-infos?path=${path}`)).json())
    .registration_module_id as number;
  const guest = await (
    await api.post("/api/v1/auth/anonymous-login", { data: { active_module_id: moduleId, is_testing: false } })
  ).json();
  const guestAuth = { authorization: `Bearer ${guest.access_token}` };
  expect(await buyerTree(api, eventId, guest.access_token)).toEqual({
    [PASS]: null,
    [DAY]: 4000,
    [LUNCH]: 1500,
    [WEEKEND]: 7000,
  });

  const basket = await (
    await api.post("/api/v1/frontend/baskets", { data: { event_id: eventId, testing: false }, headers: guestAuth })
  ).json();
  expect(
    (
      await api.post("/api/v1/frontend/selected-promotion-codes", {
        data: { basket_id: basket.id, value: "EARLY" },
        headers: guestAuth,
      })
    ).status(),
  ).toBe(201);
  expect(await buyerTree(api, eventId, guest.access_token, basket.id)).toMatchObject({ [DAY]: 3200, [WEEKEND]: 7000 });

  // One stock of 2 over both passes: a single-choice group takes one pass per basket, so three buyers try.
  const nodeIdOf = async (title: string) => {
    const answer = await api.get(`/api/v1/frontend/events/${eventId}/tree`, { headers: guestAuth });
    const nodes = flatten((await answer.json()).root) as (BuyerNode & { id: number })[];
    return nodes.find((node) => node.title === title)?.id;
  };
  const add = async (basketId: number, headers: Record<string, string>, title: string) =>
    api.post("/api/v1/frontend/selected-nodes", {
      data: { basket_id: basketId, node_id: await nodeIdOf(title) },
      headers,
    });
  const anotherBuyer = async () => {
    const login = await (
      await api.post("/api/v1/auth/anonymous-login", { data: { active_module_id: moduleId, is_testing: false } })
    ).json();
    const headers = { authorization: `Bearer ${login.access_token}` };
    const created = await (
      await api.post("/api/v1/frontend/baskets", { data: { event_id: eventId, testing: false }, headers })
    ).json();
    return { headers, basketId: created.id as number };
  };
  expect((await add(basket.id, guestAuth, DAY)).status()).toBe(201);
  const second = await anotherBuyer();
  expect((await add(second.basketId, second.headers, WEEKEND)).status()).toBe(201);
  const third = await anotherBuyer();
  const refused = await add(third.basketId, third.headers, DAY);
  expect(refused.status()).toBe(409);
  expect((await refused.json()).errors.join(" ")).toMatch(/Sold out/);

  // The day pass carries the form: a required date of birth with majority.
  const forms = await (await api.get(`/api/v1/frontend/baskets/${basket.id}/forms`, { headers: guestAuth })).json();
  expect(forms.find((item: { title: string }) => item.title === DAY)?.groups[0]).toMatchObject({
    name: "Attendee",
    is_required: true,
    extra_infos: [{ name: "Date of birth", type: "dateMajor", is_required: true }],
  });

  // A member signs in by a trusted-email link and sees the members' dinner.
  const email = `ann-${path}@example.org`;
  expect(
    (
      await api.post("/api/v1/auth/trusted-email-login", {
        data: { active_module_id: moduleId, is_testing: false, email },
      })
    ).status(),
  ).toBe(201);
  const verifyLink = () => mailLinks(dataDir, email).find((candidate) => candidate.includes("/login/verify/"));
  await expect.poll(verifyLink).toBeTruthy(); // the mail is written by the outbox, shortly after the call
  const [, loginPk, token] = verifyLink()?.match(/\/login\/verify\/([^/]+)\/([^/?#]+)/) ?? [];
  const validated = await api.post("/api/v1/auth/trusted-email-login/validate", {
    data: { active_module_id: moduleId, login_pk: Number(loginPk), validation_token: token, is_testing: false },
  });
  expect(validated.status()).toBe(200);
  const member = await validated.json();
  expect(await buyerTree(api, eventId, member.access_token)).toMatchObject({ [DINNER]: 5000, [DAY]: 4000 });
});
