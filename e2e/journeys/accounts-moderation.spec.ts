// DONE-WHEN (issue 3): a new organiser registers, follows the link from the stored email, logs in, creates an
// event in their personal unit, submits it; a superuser requests changes with a description, then approves;
// the organiser publishes. A second organiser cannot see the first one's event, baskets or unit (404), in the
// UI and in the API.
import type { Page } from "@playwright/test";
import { expect, MODERATOR, mailLinks, ORGANISER, test, typeDateTime, uniquePath } from "../fixtures.ts";
import { dataDir } from "../playwright.config.ts";
import { saveBackOfficeForm } from "./ticket-office/office.ts";

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto("/admin/auth/login");
  await page.getByRole("textbox", { name: "Email" }).fill(who.email);
  await page.getByLabel(/^Password/).fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Signed in: the app bar's user menu, named by the name it shows (WCAG 2.5.3), replaces the form.
  await expect(page.getByRole("button", { name: "Sign in" })).toBeHidden();
  await expect(page.getByRole("banner").getByRole("button", { name: /Language \(EN\)/ })).toBeVisible();
}

test("registration, moderation and publication; another organiser sees none of it", async ({ openPage }) => {
  const email = `${uniquePath("newcomer")}@example.org`;
  const password = "my-first-festival-2027!";
  const path = uniquePath("newcomer-fest");

  const organiser = await openPage();
  await organiser.goto("/admin/auth/register");
  await organiser.getByRole("textbox", { name: "Email" }).fill(email);
  await organiser.getByRole("textbox", { name: "First name" }).fill("Nina");
  await organiser.getByRole("textbox", { name: "Last name" }).fill("Simone");
  await organiser
    .getByLabel(/^Password/)
    .first()
    .fill("too-short");
  await organiser.getByLabel(/^Password confirmation/).fill("too-short");
  await organiser.getByRole("button", { name: "Create my account" }).click();
  await expect(organiser.getByText("Should contain at least 12 characters").first()).toBeVisible();
  await organiser
    .getByLabel(/^Password/)
    .first()
    .fill(password);
  await organiser.getByLabel(/^Password confirmation/).fill(password);
  await organiser.getByRole("button", { name: "Create my account" }).click();
  await expect(organiser.getByText(/Check your mailbox/)).toBeVisible();

  // The link from the stored email.
  await expect.poll(() => mailLinks(dataDir, email).length).toBeGreaterThan(0);
  const verify = mailLinks(dataDir, email).find((link) => link.includes("/admin/auth/register/verify/"));
  expect(verify).toBeTruthy();
  await organiser.goto(verify as string);
  await expect(organiser.getByText("Your email address is confirmed. You can now sign in.")).toBeVisible();
  await expect(organiser).toHaveURL(/\/admin\/auth\/login/, { timeout: 15_000 });

  await signIn(organiser, { email, password });
  await expect(
    organiser
      .getByRole("table")
      .or(organiser.getByText(/No Event yet|No events yet|no results/i))
      .first(),
  ).toBeVisible();
  await organiser.goto("/admin/events/create");
  await organiser.getByRole("textbox", { name: "Private name", exact: true }).fill("Newcomer festival");
  await organiser.getByRole("textbox", { name: "Public name", exact: true }).fill("Newcomer Festival");
  await organiser.getByRole("textbox", { name: "Ticket office path", exact: true }).fill(path);
  await typeDateTime(organiser, "Start", "07012030 0600PM");
  await typeDateTime(organiser, "End", "07012030 1100PM");
  await organiser.getByRole("button", { name: /^save$/i }).click();
  await expect(organiser).toHaveURL(/\/admin\/events\/\d+/);
  const eventId = Number(organiser.url().match(/events\/(\d+)/)?.[1]);
  await organiser.getByRole("button", { name: "Submit for moderation" }).click();
  await expect(organiser.getByText("Pending moderation")).toBeVisible();

  // The moderator asks for changes, with a description.
  const moderator = await openPage();
  await signIn(moderator, MODERATOR);
  await moderator.goto(`/admin/events/${eventId}`);
  await moderator.getByRole("button", { name: "Request changes" }).click();
  const dialog = moderator.getByRole("dialog");
  await dialog.getByRole("textbox", { name: "Changes to make" }).fill("Please add the venue's address.");
  await dialog.getByRole("button", { name: "Request changes" }).click();
  await expect(moderator.getByText("Changes requested")).toBeVisible();

  await organiser.reload();
  await expect(organiser.getByText("Please add the venue's address.")).toBeVisible();
  await organiser.getByRole("textbox", { name: "Location", exact: true }).fill("Parc de Mon-Repos, Lausanne");
  await saveBackOfficeForm(organiser);
  await organiser.getByRole("button", { name: "Submit for moderation" }).click();
  await expect(organiser.getByText("Pending moderation")).toBeVisible();

  await moderator.reload();
  await moderator.getByRole("button", { name: "Approve" }).click();
  await expect(moderator.getByText("Validated")).toBeVisible();

  // The organiser publishes, on the status settings (the editor has no status select).
  await organiser.goto(`/admin/events/${eventId}/settings/status`);
  await organiser.getByRole("combobox", { name: "Status" }).click();
  await organiser.getByRole("option", { name: "Public" }).click();
  await organiser.getByRole("button", { name: /^save$/i }).click();
  await expect
    .poll(async () => (await organiser.request.get(`/api/v1/events/public-infos?path=${path}`)).status(), {
      timeout: 15_000,
    })
    .toBe(200);

  // Another organiser (the demo one) sees none of it: 404 in the UI and in the API.
  const unitId = (await (await organiser.request.get(`/api/v1/events/public-infos?path=${path}`)).json()).id as number;
  expect(unitId).toBe(eventId);
  const other = await openPage();
  await signIn(other, ORGANISER);
  await other.goto(`/admin/events/${eventId}`);
  await expect(other.getByText("Resource not found").first()).toBeVisible();
  const token = (await (await other.request.post("/api/v1/auth/login", { data: ORGANISER })).json()).access_token;
  const auth = { headers: { authorization: `Bearer ${token}` } };
  expect((await other.request.get(`/api/v1/events/${eventId}`, auth)).status()).toBe(404);
  const ownToken = (await (await organiser.request.post("/api/v1/auth/login", { data: { email, password } })).json())
    .access_token;
  const ownUnits = await (
    await organiser.request.get("/api/v1/units", { headers: { authorization: `Bearer ${ownToken}` } })
  ).json();
  const personalUnit = ownUnits[0].id as number;
  expect((await other.request.get(`/api/v1/units/${personalUnit}`, auth)).status()).toBe(404);
  await other.goto(`/admin/units/${personalUnit}`);
  await expect(other.getByText("Resource not found").first()).toBeVisible();
  const baskets = await other.request.get(
    `/api/v1/baskets?filter=${encodeURIComponent(JSON.stringify({ event_id: eventId }))}`,
    auth,
  );
  expect(await baskets.json()).toEqual([]);
  const events = await (await other.request.get("/api/v1/events", auth)).json();
  expect(events.map((e: { id: number }) => e.id)).not.toContain(eventId);
});
