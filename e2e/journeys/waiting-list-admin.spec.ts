// Issue 31, the back office's side of the waiting list: an organiser switches an event's list on with offers by hand
// and an offer time of 2 hours 30, sees the buyers who put their names down for a sold-out article (joined through
// the API, each signed in by a trusted email's link), offers one by hand (refused while no ticket is free, then
// offered once the stock is raised), removes another once confirmed, filters the entries by state and downloads the
// list as csv; every step is what the API then answers.
import type { APIRequestContext, Page } from "@playwright/test";
import { axeFor, oneAxeRunAtATime } from "../accessibility.ts";
import { downloaded, expect, mailLinks, test, uniquePath } from "../fixtures.ts";
import { dataDir } from "../playwright.config.ts";
import { asStaff, eventOnSale, signInToBackOffice } from "./ticket-office/office.ts";

const ARTICLE = "Front row";

/** The figure under a label of the list's counts. */
const figure = (page: Page, label: string) =>
  page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");

/**
 * No serious or critical accessibility violation (axe-core, WCAG 2 A/AA) in the page's own sections: the list now,
 * the entries and the settings (the app bar and the event's navigation are every event page's, checked elsewhere).
 */
async function expectWaitingListAccessible(page: Page) {
  const results = await oneAxeRunAtATime(page, () =>
    axeFor(page).include("section").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze(),
  );
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
  expect(serious).toEqual([]);
}

/** A ticket-office login to the event by a trusted email's link, through the API: its bearer header. */
async function signedInByEmail(request: APIRequestContext, moduleId: number, email: string) {
  const asked = await request.post("/api/v1/auth/trusted-email-login", {
    data: { active_module_id: moduleId, is_testing: false, email },
  });
  expect(asked.status(), await asked.text()).toBe(201);
  const verifyLink = () => mailLinks(dataDir, email).find((link) => link.includes("/login/verify/"));
  await expect.poll(verifyLink, { timeout: 60_000 }).toBeTruthy(); // written by the outbox, shortly after the call
  const [, loginPk, token] = verifyLink()?.match(/\/login\/verify\/([^/]+)\/([^/?#]+)/) ?? [];
  const validated = await request.post("/api/v1/auth/trusted-email-login/validate", {
    data: { active_module_id: moduleId, login_pk: Number(loginPk), validation_token: token, is_testing: false },
  });
  expect(validated.status(), await validated.text()).toBe(200);
  return { authorization: `Bearer ${(await validated.json()).access_token}` };
}

test("an organiser switches the waiting list on, offers an entry by hand, removes one and exports the list", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("waiting-list-admin");
  const { event, organiser } = await eventOnSale(
    request,
    {
      name: `Waiting list ${path}`,
      frontend_title: "Winter Concert",
      frontend_path: path,
      start_date: "2030-12-12T18:00:00.000Z",
      end_date: "2030-12-12T22:00:00.000Z",
    },
    {
      articles: [{ title: ARTICLE, price: 9000, stock: 1 }],
      settings: { access_methods: ["anonymous", "trusted_email"] },
    },
  );
  const articles: { node_id: number; title: string; stock: { limit_id: number; maximum: number } }[] =
    await organiser.get(`/events/${event.id}/articles`);
  const frontRow = articles.find((article) => article.title === ARTICLE);
  if (!frontRow) throw new Error("The article was not created");
  const moduleId = (await (await request.get(`/api/v1/events/public-infos?path=${path}`)).json())
    .registration_module_id as number;
  const list = () => organiser.get(`/events/${event.id}/waiting-list`);
  const entries = async () =>
    ((await organiser.get(`/events/${event.id}/waiting-list/entries`)).data as { email: string; state: string }[]).map(
      ({ email, state }) => [email, state],
    );

  // A guest holds the one front-row seat: the article is sold out.
  const guest = await (
    await request.post("/api/v1/auth/anonymous-login", { data: { active_module_id: moduleId, is_testing: false } })
  ).json();
  const guestAuth = { authorization: `Bearer ${guest.access_token}` };
  const basket = await (
    await request.post("/api/v1/frontend/baskets", { data: { event_id: event.id, testing: false }, headers: guestAuth })
  ).json();
  const held = await request.post("/api/v1/frontend/selected-nodes", {
    data: { basket_id: basket.id, node_id: frontRow.node_id },
    headers: guestAuth,
  });
  expect(held.status(), await held.text()).toBe(201);

  // No list yet: the page says it is off and offers to switch it on.
  const admin = await openPage();
  await signInToBackOffice(admin);
  await admin.goto(`/admin/events/${event.id}/edit`);
  await admin
    .getByRole("navigation", { name: "The event's pages" })
    .getByRole("link", { name: "Waiting list" })
    .click();
  await expect(admin).toHaveURL(new RegExp(`/admin/events/${event.id}/waiting-list$`));
  await expect(admin.getByRole("heading", { name: "The waiting list is off" })).toBeVisible();
  await admin.getByRole("radio", { name: "By hand: only when you press Offer now" }).check();
  await admin.getByRole("textbox", { name: "Hours" }).fill("2");
  await admin.getByRole("textbox", { name: "Minutes" }).fill("30");
  await admin.getByRole("button", { name: "Switch the waiting list on" }).click();

  const now = admin.getByRole("region", { name: "The list now" });
  await expect(now.getByText("Offers by hand")).toBeVisible();
  await expect(now.getByText("2 hours 30 minutes")).toBeVisible();
  await expect(figure(admin, "Waiting")).toHaveText("0");
  await expect(admin.getByText("Nobody has put their name down yet.")).toBeVisible();
  expect(await list()).toMatchObject({ accepting: true, automatic: false, offer_minutes: 150, partial_offers: false });

  // Three buyers put their names down for the sold-out seat, one each, in this order.
  const emails = ["ada", "grace", "alan"].map((name) => `${name}-${path}@example.org`);
  const [ada, grace, alan] = emails as [string, string, string];
  for (const email of emails) {
    const joined = await request.post("/api/v1/frontend/waiting-list", {
      data: { event_id: event.id, node_id: frontRow.node_id, quantity: 1, testing: false },
      headers: await signedInByEmail(request, moduleId, email),
    });
    expect(joined.status(), await joined.text()).toBe(201);
  }

  // The organiser sees them in line.
  await admin.reload();
  const table = admin.getByRole("region", { name: "Entries" }).getByRole("table");
  const row = (email: string) => table.getByRole("row").filter({ hasText: email });
  await expect(figure(admin, "Waiting")).toHaveText("3");
  await expect(table.getByRole("row")).toHaveCount(4);
  for (const [index, email] of emails.entries()) {
    await expect(row(email)).toContainText(`${index + 1}${email}${ARTICLE}1Waiting`);
  }

  await expectWaitingListAccessible(admin);

  // No seat is free: the offer by hand is refused, and the organiser is told why.
  await admin.getByRole("button", { name: `Offer now to ${ada}` }).click();
  await expect(admin.getByRole("region", { name: "Entries" }).getByRole("alert")).toHaveText(
    `Could not offer to ${ada}: Not enough stock is free to offer 1 of “${ARTICLE}”`,
  );
  expect(await entries()).toEqual(emails.map((email) => [email, "waiting"]));

  // A second seat (a public event's stock is changed by a superuser): with offers by hand, nobody is offered it until
  // the organiser chooses whom.
  await (await asStaff(request)).put(`/node-limits/${frontRow.stock.limit_id}`, {
    maximum: frontRow.stock.maximum + 1,
  });
  expect(await entries()).toEqual(emails.map((email) => [email, "waiting"]));
  await admin.getByRole("button", { name: `Offer now to ${ada}` }).click();
  await expect(row(ada)).toContainText("Offered");
  await expect(admin.getByRole("region", { name: "Entries" }).getByRole("alert")).toHaveCount(0);
  await expect(admin.getByRole("button", { name: `Offer now to ${ada}` })).toHaveCount(0);
  await expect(figure(admin, "Offered")).toHaveText("1");
  await expect(row(grace)).toContainText(`1${grace}`);
  expect(await entries()).toEqual([
    [ada, "offered"],
    [grace, "waiting"],
    [alan, "waiting"],
  ]);

  // Grace is removed, once confirmed; Alan is first in line.
  await admin.getByRole("button", { name: `Remove ${grace}` }).click();
  const confirm = admin.getByRole("dialog", { name: "Remove this entry?" });
  await expect(confirm).toContainText(`${grace} is taken off the waiting list.`);
  await confirm.getByRole("button", { name: "Remove" }).click();
  await expect(row(grace)).toContainText("Removed");
  await expect(row(alan)).toContainText(`1${alan}`);
  await expect(figure(admin, "Removed")).toHaveText("1");
  expect(await entries()).toEqual([
    [ada, "offered"],
    [grace, "removed"],
    [alan, "waiting"],
  ]);

  await expectWaitingListAccessible(admin);

  // The state filter: those waiting only.
  await admin.getByRole("combobox", { name: "State" }).click();
  await admin.getByRole("option", { name: "Waiting" }).click();
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(row(alan)).toBeVisible();
  await admin.getByRole("combobox", { name: "State" }).click();
  await admin.getByRole("option", { name: "All states" }).click();
  await expect(table.getByRole("row")).toHaveCount(4);

  // The whole list as csv: one row per entry, in order of joining.
  await admin.getByRole("button", { name: "Export" }).click();
  const exporting = admin.waitForEvent("download");
  await admin.getByRole("menuitem", { name: "CSV" }).click();
  const download = await exporting;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const lines = (await downloaded(download)).toString("utf8").trim().split(/\r?\n/);
  expect(lines).toHaveLength(4);
  expect(lines.slice(1).map((line) => emails.find((email) => line.includes(email)))).toEqual(emails);
  // The article's French beside its English (empty: none written), then the quantity.
  expect(lines[3]).toMatch(new RegExp(`^1,${alan.replace(/[.]/g, "\\.")},${ARTICLE},,1,`));

  // The same page in French passes the same checks (the app bar hides while the page is scrolled down).
  await admin.evaluate(() => window.scrollTo(0, 0));
  await admin.getByRole("button", { name: "Language" }).click();
  await admin.getByRole("menuitem", { name: "Français" }).click();
  await expect(admin.locator("dt", { hasText: /^En attente$/ })).toBeVisible();
  await expectWaitingListAccessible(admin);
});
