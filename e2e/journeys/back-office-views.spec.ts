// DONE-WHEN (issue 17), docs/specification.md §2.1 / §2.2: a first-time organiser sees the tabs of Baskets,
// Communications, Dashboard, Edit and Settings marked as not opened yet, each mark going as the view is opened (in the
// other tab of the back office too) and staying gone after a reload. A page whose chunk the server no longer has (a tab
// opened before a new deployment) reloads once and shows the page; when the chunk is still missing after the reload,
// the error page, never a blank screen nor a loop of reloads.
import type { Locator, Page } from "@playwright/test";
import { expect, mailLinks, ORGANISER, test, uniquePath } from "../fixtures.ts";
import { dataDir } from "../playwright.config.ts";
import { asStaff, createEventThroughApi, signInToBackOffice } from "./ticket-office/office.ts";

const NOT_OPENED = "Not opened yet";
const TRACKED_TABS = ["Edit", "Settings", "Communication", "Baskets", "Dashboard"];

const eventNav = (page: Page) => page.getByRole("navigation", { name: "The event's pages" });
const tab = (page: Page, name: string) => eventNav(page).getByRole("link", { name, exact: true });

/** A tab shows the mark: a visible dot, and the words for screen readers as the link's description. */
async function expectMarked(link: Locator, marked: boolean) {
  await expect(link).toHaveAccessibleDescription(marked ? NOT_OPENED : "");
  const dot = link.locator(".MuiBadge-dot");
  if (marked) await expect(dot).toBeVisible();
  else await expect(dot).toBeHidden();
}

test("a first-time organiser sees the views not opened yet marked, until each is opened", async ({
  openPage,
  request,
}) => {
  // A fresh account, registered and confirmed through the link of its mail.
  const who = { email: `${uniquePath("first-timer")}@example.org`, password: "my-first-concert-2027!" };
  const registered = await request.post("/api/v1/auth/register", {
    data: { ...who, first_name: "Clara", last_name: "Haskil", password_confirmation: who.password },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const verifyLink = () => mailLinks(dataDir, who.email).find((link) => link.includes("/admin/auth/register/verify/"));
  await expect.poll(verifyLink).toBeTruthy();
  const organiser = await openPage();
  await organiser.goto(verifyLink() as string);
  await expect(organiser.getByText("Your email address is confirmed. You can now sign in.")).toBeVisible();

  const path = uniquePath("first-concert");
  const event = await createEventThroughApi(await asStaff(request, who), {
    name: `First concert ${path}`,
    frontend_title: "First Concert",
    frontend_path: path,
    start_date: "2030-03-14T19:00:00.000Z",
    end_date: "2030-03-14T22:00:00.000Z",
  });
  await signInToBackOffice(organiser, who);

  // The stocks table is not a tracked view: every mark shows there, and none on the untracked tabs.
  const stocks = `/admin/events/${event.id}/stocks-table`;
  await organiser.goto(stocks);
  for (const name of TRACKED_TABS) await expectMarked(tab(organiser, name), true);
  for (const name of ["Stocks table", "Invoices"]) await expectMarked(tab(organiser, name), false);
  // A second tab of the back office, left on the stocks table.
  const otherTab = await organiser.context().newPage();
  await otherTab.goto(stocks);
  await expectMarked(tab(otherTab, "Settings"), true);

  // Each view opened takes its own mark off at once; the views not opened yet keep theirs.
  for (const [index, name] of TRACKED_TABS.entries()) {
    await tab(organiser, name).click();
    await expect(tab(organiser, name)).toHaveAttribute("aria-current", "page");
    await expectMarked(tab(organiser, name), false);
    for (const later of TRACKED_TABS.slice(index + 1)) await expectMarked(tab(organiser, later), true);
    // The other tab hears of it without a reload.
    await expectMarked(tab(otherTab, name), false);
  }

  // Gone for good: after a reload, and on any page.
  await organiser.goto(stocks);
  await organiser.reload();
  await expect(tab(organiser, "Stocks table")).toHaveAttribute("aria-current", "page");
  for (const name of TRACKED_TABS) await expectMarked(tab(organiser, name), false);
});

/**
 * Serves the back office's entry script as a build before the current one would: naming, instead of the dashboard's
 * chunk, a file of that name the server does not have (the old build's file, removed by the deployment). `times`:
 * how many loads of the page get that entry; the later ones get the current entry.
 */
async function entryNamingAGoneChunk(page: Page, times: number) {
  // The entry is the page's script (other chunks may be named index-… too).
  const html = await (await page.request.get("/admin/")).text();
  const entry = html.match(/<script type="module"[^>]* src="([^"]+)"/)?.[1];
  if (!entry) throw new Error("The back office's page names no entry script");
  const gone = { chunk: "", served: 0 };
  await page.route(new URL(entry, page.url()).href, async (route) => {
    if (gone.served >= times) return route.fallback();
    const response = await route.fetch();
    const script = await response.text();
    const chunk = script.match(/import\("\.\/(EventDashboard-[\w-]+\.js)"\)/)?.[1];
    if (!chunk) throw new Error("The entry imports no EventDashboard chunk");
    gone.chunk = chunk.replace(/\.js$/, "0ld.js");
    gone.served++;
    // The text as decoded: without the compressed answer's encoding and length.
    const headers = Object.fromEntries(
      Object.entries(response.headers()).filter(([name]) => !/^content-(encoding|length)$/i.test(name)),
    );
    await route.fulfill({ status: response.status(), headers, body: script.replaceAll(chunk, gone.chunk) });
  });
  return gone;
}

/** The page's loads of documents (the first one and every reload). */
function documentLoads(page: Page) {
  const loads: string[] = [];
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loads.push(request.url());
  });
  return loads;
}

test("a page whose chunk a new deployment removed reloads once; still missing, the error page shows", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("chunks");
  const event = await createEventThroughApi(await asStaff(request, ORGANISER), {
    name: `Chunks ${path}`,
    frontend_title: "Chunk Festival",
    frontend_path: path,
    start_date: "2030-05-01T18:00:00.000Z",
    end_date: "2030-05-01T23:00:00.000Z",
  });
  const dashboard = `/admin/events/${event.id}/dashboard`;

  // The old entry once: the reloaded page gets the current one, and the dashboard shows.
  const admin = await openPage();
  await signInToBackOffice(admin);
  const gone = await entryNamingAGoneChunk(admin, 1);
  const loads = documentLoads(admin);
  await admin.goto(dashboard);
  await expect(admin.getByRole("region", { name: "Total sales" })).toBeVisible();
  // Really missing on the server: its 404, not the back office's page.
  const missing = await request.get(`/admin/assets/${gone.chunk}`);
  expect(missing.status()).toBe(404);
  expect(await missing.text()).not.toContain("<html");
  expect(gone.served).toBe(1);
  expect(loads).toHaveLength(2);
  expect(
    await admin.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).type),
  ).toBe("reload");
  await expect(admin.getByText("Unexpected error")).toHaveCount(0);
  // The screen that caused the reload loaded: the next deployment may reload the tab again.
  expect(await admin.evaluate(() => sessionStorage.getItem("chunkLoadReloaded"))).toBeNull();

  // The old entry on every load: one reload, then the error page, which stays (no second reload).
  const stuck = await openPage();
  await signInToBackOffice(stuck);
  const stillGone = await entryNamingAGoneChunk(stuck, Number.POSITIVE_INFINITY);
  const stuckLoads = documentLoads(stuck);
  await stuck.goto(dashboard);
  await expect(stuck.getByRole("alert").filter({ hasText: "Unexpected error" })).toBeVisible();
  expect(stillGone.served).toBe(2);
  expect(stuckLoads).toHaveLength(2);
  // The back office still works in that page: its link home leads to the events list, without loading a page.
  await stuck.getByRole("link", { name: "Back to the back office" }).click();
  await expect(stuck.getByRole("table")).toBeVisible();
  expect(stuckLoads).toHaveLength(2);
});
