// DONE-WHEN (issue 14), the moderation queue: a moderator sees in the menu how many events wait for moderation,
// opens the queue (the events list filtered to them), opens an event, approves it, and the count goes down; an
// organiser has no such entry. Issue 28: a published event set back to draft and changed needs a new approval;
// its texts may be fixed while on sale, which puts it back in the queue (ADR 0031). And the back office in French: page titles that read as French, dates typed and
// shown as dd.mm.yyyy HH:mm, sent as ISO 8601 UTC.
import type { Locator, Page } from "@playwright/test";
import { expect, MODERATOR, ORGANISER, test, typeDateTime, uniquePath } from "../fixtures.ts";
import {
  asStaff,
  createEventThroughApi,
  eventOnSale,
  saveBackOfficeForm,
  signInToBackOffice,
} from "./ticket-office/office.ts";

/** What a date-time input shows, without the invisible marks that keep its sections left to right. */
const shownDateTime = async (page: Page, label: string) =>
  (await page.getByRole("group", { name: label, exact: true }).textContent())?.replace(
    /[\u200e\u200f\u2066-\u2069]/g,
    "",
  );

/** The number the menu's Moderation entry shows (its accessible name says it in words too). */
async function waitingCount(entry: Locator): Promise<number> {
  const label = (await entry.getAttribute("aria-label")) ?? "";
  const count = label.match(/(\d+) events? waiting for moderation/)?.[1];
  expect(count, label).toBeDefined();
  return Number(count);
}

test("a moderator approves an event from the moderation queue and its count goes down", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("queue");
  const organiser = await asStaff(request, ORGANISER);
  const moderatorApi = await asStaff(request, MODERATOR);
  const unit = await organiser.post("/units", { name: `Queue ${path}`, address: "Rue de Genève 1, Lausanne" });
  const event = await createEventThroughApi(organiser, {
    unit_id: unit.id,
    name: `Queue ${path}`,
    frontend_title: "Harvest Fair",
    frontend_path: path,
    start_date: "2030-10-03T16:00:00.000Z",
    end_date: "2030-10-03T22:00:00.000Z",
  });
  await organiser.post(`/events/${event.id}/moderation/request`, {});
  const waitingInApi = async (): Promise<number[]> =>
    (await moderatorApi.get(`/events?filter=${encodeURIComponent('{"moderation_status":"requested"}')}`)).map(
      (waiting: { id: number }) => waiting.id,
    );

  const moderator = await openPage();
  await signInToBackOffice(moderator, MODERATOR);
  const entry = moderator.getByRole("menuitem", { name: /^Moderation/ });
  await expect(entry).toBeVisible();
  /**
   * The events waiting, once the badge shows as many as the API lists: other journeys may submit or settle theirs
   * meanwhile, and the badge follows on react-admin's refresh.
   */
  const agreedQueue = async () => {
    let waiting: number[] = [];
    await expect(async () => {
      waiting = await waitingInApi();
      if ((await waitingCount(entry)) !== waiting.length)
        await moderator.getByRole("button", { name: "Refresh" }).click();
      expect(await waitingCount(entry)).toBe(waiting.length);
    }).toPass({ timeout: 20_000 });
    return waiting;
  };
  expect(await agreedQueue()).toContain(event.id);

  // The queue is the events list filtered to the events waiting, with the filter shown.
  await entry.click();
  await expect(moderator).toHaveURL(/\/admin\/events\?.*moderationStatus/);
  await expect(moderator.getByRole("combobox", { name: "Moderation" })).toContainText("Pending moderation");
  const row = moderator.getByRole("row").filter({ hasText: `Queue ${path}` });
  await expect(row).toContainText("Pending moderation");

  // A row of the queue opens the event's status page, where the moderation panel is.
  await row.click();
  await expect(moderator).toHaveURL(new RegExp(`/admin/events/${event.id}/settings/status$`));
  const before = await agreedQueue();
  await moderator.getByRole("button", { name: "Approve" }).click();
  await expect(moderator.getByText("The event was approved")).toBeVisible();
  await expect(moderator.getByText("Validated").first()).toBeVisible();
  // One less: ours left the queue (those other journeys submitted or settled meanwhile counted apart).
  const after = await agreedQueue();
  expect(after).not.toContain(event.id);
  const othersCame = after.filter((id) => !before.includes(id)).length;
  const othersLeft = before.filter((id) => id !== event.id && !after.includes(id)).length;
  expect(after.length).toBe(before.length - 1 + othersCame - othersLeft);
  expect((await organiser.get(`/events/${event.id}`)).moderation_status).toBe("validated");

  // Back in the queue, the approved event is gone.
  await entry.click();
  await expect(moderator.getByRole("row").filter({ hasText: `Queue ${path}` })).toHaveCount(0);

  // Organisers moderate nothing: no such entry for them.
  const organiserPage = await openPage();
  await signInToBackOffice(organiserPage, ORGANISER);
  await expect(organiserPage.getByRole("menuitem", { name: /^Events/ })).toBeVisible();
  await expect(organiserPage.getByRole("menuitem", { name: /^Moderation/ })).toHaveCount(0);
});

test("a published event set back to draft and changed goes through moderation again; its texts may be fixed live", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("republish");
  const organiserApi = await asStaff(request, ORGANISER);
  const moderatorApi = await asStaff(request, MODERATOR);
  const unit = await organiserApi.post("/units", { name: `Republish ${path}`, address: "Rue du Midi 3, Lausanne" });
  const { event } = await eventOnSale(request, {
    unit_id: unit.id,
    name: `Republish ${path}`,
    frontend_title: "Autumn Concert",
    frontend_path: path,
    start_date: "2030-10-10T17:00:00.000Z",
    end_date: "2030-10-10T21:00:00.000Z",
  });
  const waitingInApi = async (): Promise<number[]> =>
    (await moderatorApi.get(`/events?filter=${encodeURIComponent('{"moderation_status":"requested"}')}`)).map(
      (waiting: { id: number }) => waiting.id,
    );

  // On sale, the editor is locked and says what to do: back to draft (then a new approval), or fix the texts.
  const admin = await openPage();
  await signInToBackOffice(admin, ORGANISER);
  await admin.goto(`/admin/events/${event.id}`);
  const banner = admin.getByRole("alert").filter({ hasText: "This event is public" });
  await expect(banner).toContainText("needs the moderators' approval again before it goes public");
  await expect(banner).toContainText("Its communication texts can still be fixed while it is on sale");

  // A text fixed while on sale: saved, the event stays public, and goes back to the moderators' queue.
  await admin.goto(`/admin/events/${event.id}/communication/order-confirmation`);
  await admin.getByRole("textbox", { name: "Subject (English)" }).fill("Your seats for the Autumn Concert");
  await saveBackOfficeForm(admin);
  // The saved form and the disabled Save look alike while saving: the answer is read from the API.
  const stored = () => organiserApi.get(`/events/${event.id}`);
  await expect.poll(async () => (await stored()).moderation_status).toBe("requested");
  expect((await stored()).status).toBe("public");
  expect(await waitingInApi()).toContain(event.id);
  await moderatorApi.post(`/events/${event.id}/moderation/approve`, {});

  // Back to draft from the banner's link, still approved: nothing changed yet.
  await admin.goto(`/admin/events/${event.id}`);
  await banner.getByRole("link", { name: "Set it back to draft" }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/events/${event.id}/settings/status$`));
  await admin.getByRole("combobox", { name: "Status" }).click();
  await admin.getByRole("option", { name: "Draft" }).click();
  await saveBackOfficeForm(admin);
  await expect.poll(async () => (await stored()).status).toBe("draft");
  expect((await stored()).moderation_status).toBe("validated");

  // Changed: no longer approved, it cannot go public until approved again.
  await admin.goto(`/admin/events/${event.id}`);
  await expect(admin.getByRole("alert").filter({ hasText: "This event is approved" })).toContainText(
    "Any change to it sends it back to moderation",
  );
  await admin.getByRole("textbox", { name: "Location", exact: true }).fill("Salle Métropole, Lausanne");
  await saveBackOfficeForm(admin);
  await expect.poll(async () => (await stored()).moderation_status).toBe("not_requested");
  await admin.goto(`/admin/events/${event.id}/settings/status`);
  await expect(admin.getByText("Not requested")).toBeVisible();
  await admin.getByRole("combobox", { name: "Status" }).click();
  await expect(admin.getByRole("option", { name: "Draft" })).toBeVisible();
  await expect(admin.getByRole("option", { name: "Public" })).toHaveCount(0);
  await admin.keyboard.press("Escape");
  await admin.getByRole("button", { name: "Submit for moderation" }).click();
  await expect(admin.getByText("Pending moderation")).toBeVisible();
  expect(await waitingInApi()).toContain(event.id);

  // Approved again, it goes public again.
  await moderatorApi.post(`/events/${event.id}/moderation/approve`, {});
  await admin.reload();
  await admin.getByRole("combobox", { name: "Status" }).click();
  await admin.getByRole("option", { name: "Public" }).click();
  await saveBackOfficeForm(admin);
  await expect.poll(async () => (await stored()).status).toBe("public");
});

test("in French, the back office's titles read as French and dates are typed and shown as dd.mm.yyyy HH:mm", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("francais");
  const organiser = await asStaff(request, ORGANISER);
  const page = await openPage({ timezoneId: "Europe/Zurich" });
  await page.addInitScript(() => window.localStorage.setItem("language", "fr"));
  await signInToBackOffice(page, ORGANISER);
  await expect(page.getByText("Liste des événements").first()).toBeVisible();

  await page.getByRole("link", { name: "Créer" }).click();
  await expect(page.getByText("Créer un événement").first()).toBeVisible();
  await page.getByRole("textbox", { name: "Nom privé", exact: true }).fill(`Fête ${path}`);
  await page.getByRole("textbox", { name: "Nom public", exact: true }).fill("Fête des vendanges");
  await page.getByRole("textbox", { name: "Chemin de la billetterie", exact: true }).fill(path);
  await typeDateTime(page, "Début", "24092030 1800");
  await typeDateTime(page, "Fin", "24092030 2330");
  await expect.poll(() => shownDateTime(page, "Début")).toBe("24.09.2030 18:00");
  await expect.poll(() => shownDateTime(page, "Fin")).toBe("24.09.2030 23:30");
  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page).toHaveURL(/\/admin\/events\/\d+/);
  const eventId = Number(page.url().match(/events\/(\d+)/)?.[1]);
  // Zurich's summer time: 18:00 there is 16:00 UTC on the wire.
  expect(await organiser.get(`/events/${eventId}`)).toMatchObject({
    start_date: "2030-09-24T16:00:00.000Z",
    end_date: "2030-09-24T21:30:00.000Z",
  });
  await expect(page.getByText(`Modifier l'événement Fête ${path}`).first()).toBeVisible();
});
