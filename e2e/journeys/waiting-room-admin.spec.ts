// Issue 30, the back office's side of a fair on-sale: an organiser caps the tickets per buyer and the hold renewals
// of an event and the seats of one article per buyer, switches its waiting room on, sees it live, opens it early,
// changes its rate, pauses, resumes and ends it; every step is what the API then answers.
import type { Page } from "@playwright/test";
import { expect, ORGANISER, test, typeDateTime, uniquePath } from "../fixtures.ts";
import { asStaff, createEventThroughApi, saveBackOfficeForm, signInToBackOffice } from "./ticket-office/office.ts";

/** The figure under a label of the room's live panel. */
const figure = (page: Page, label: string) =>
  page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");

test("an organiser caps the tickets per buyer, then runs the event's waiting room from the back office", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("waiting-room-admin");
  const organiser = await asStaff(request, ORGANISER);
  const event = await createEventThroughApi(organiser, {
    name: `Waiting room ${path}`,
    frontend_title: "Winter Concert",
    frontend_path: path,
    start_date: "2030-12-12T18:00:00.000Z",
    end_date: "2030-12-12T22:00:00.000Z",
  });
  const article = await organiser.post(`/events/${event.id}/articles`, { title: "Front row", price: 9000, stock: 40 });
  const stored = () => organiser.get(`/events/${event.id}`);
  const room = () => organiser.get(`/events/${event.id}/waiting-room`);

  // Zurich's time: the picker shows local time, the wire is UTC (UTC+1 in December).
  const admin = await openPage({ timezoneId: "Europe/Zurich" });
  await signInToBackOffice(admin);

  // The caps: at most 4 tickets per buyer (Properties), 1 hold renewal (Dates).
  await admin.goto(`/admin/events/${event.id}/edit?tab=properties`);
  await admin.getByRole("textbox", { name: "Most tickets per buyer" }).fill("4");
  await saveBackOfficeForm(admin);
  await admin.goto(`/admin/events/${event.id}/settings/dates`);
  await expect(admin.getByRole("textbox", { name: "Hold renewals allowed" })).toHaveValue("10");
  await admin.getByRole("textbox", { name: "Hold renewals allowed" }).fill("1");
  await saveBackOfficeForm(admin);
  expect(await stored()).toMatchObject({ max_tickets_per_buyer: 4, max_hold_renewals: 1 });

  // An article's own cap: at most 2 front-row seats per buyer (the element editor; articles only).
  await admin.goto(`/admin/events/${event.id}/edit?tab=configuration`);
  await admin
    .getByRole("list", { name: "Elements" })
    .getByRole("button", { name: /^Front row/ })
    .click();
  await admin.getByRole("textbox", { name: "Most per buyer" }).fill("2");
  await admin.getByRole("button", { name: "Save the element" }).click();
  await expect(admin.getByText("Saved", { exact: true })).toBeVisible();
  await expect
    .poll(async () => (await organiser.get(`/node-configurations/${article.configuration.id}`)).max_per_buyer)
    .toBe(2);

  // No room yet: the page offers to switch one on.
  await admin
    .getByRole("navigation", { name: "The event's pages" })
    .getByRole("link", { name: "Waiting room" })
    .click();
  await expect(admin).toHaveURL(new RegExp(`/admin/events/${event.id}/waiting-room$`));
  await expect(admin.getByRole("heading", { name: "Switch a waiting room on" })).toBeVisible();
  await typeDateTime(admin, "Opening", "120120300900AM");
  await admin.getByRole("textbox", { name: "Buyers let in per minute" }).fill("30");
  await admin.getByRole("textbox", { name: "Admission time (minutes)" }).fill("15");
  await admin.getByRole("button", { name: "Switch the waiting room on" }).click();

  // The room live, before its opening.
  const live = admin.getByRole("region", { name: "The room live" });
  await expect(live.getByText("Running")).toBeVisible();
  await expect(live.getByText("Before the opening")).toBeVisible();
  await expect(live.getByText("30 let in per minute")).toBeVisible();
  await expect(figure(admin, "Waiting")).toHaveText("0");
  await expect(figure(admin, "Places taken")).toHaveText("0");
  expect(await room()).toMatchObject({
    opens_at: "2030-12-01T08:00:00.000Z",
    rate_per_minute: 30,
    admission_minutes: 15,
    status: "running",
    is_open: false,
  });

  // Opened early: the opening no longer moves, and Open now is gone.
  await live.getByRole("button", { name: "Open now" }).click();
  await expect(live.getByText("Before the opening")).toHaveCount(0);
  await expect(live.getByRole("button", { name: "Open now" })).toHaveCount(0);
  await expect(admin.getByText("The room has opened: its opening no longer moves.")).toBeVisible();
  expect((await room()).is_open).toBe(true);

  // The rate changes while it runs.
  await admin.getByRole("textbox", { name: "Buyers let in per minute" }).fill("60");
  await admin.getByRole("button", { name: "Save the changes" }).click();
  await expect(live.getByText("60 let in per minute")).toBeVisible();
  expect((await room()).rate_per_minute).toBe(60);

  // Pause, then resume.
  await live.getByRole("button", { name: "Pause" }).click();
  await expect(live.getByText("Paused")).toBeVisible();
  expect((await room()).status).toBe("paused");
  await live.getByRole("button", { name: "Resume" }).click();
  await expect(live.getByText("Running")).toBeVisible();
  expect((await room()).status).toBe("running");

  // End, once confirmed: nothing is left to press.
  await live.getByRole("button", { name: "End" }).click();
  const confirm = admin.getByRole("dialog", { name: "End the waiting room?" });
  await confirm.getByRole("button", { name: "End" }).click();
  await expect(live.getByText("The waiting room has ended: buyers go straight to the ticket office.")).toBeVisible();
  await expect(live.getByRole("button")).toHaveCount(0);
  await expect(admin.getByRole("button", { name: "Save the changes" })).toHaveCount(0);
  await expect(admin.getByRole("button", { name: "Switch the waiting room on" })).toBeVisible();
  expect((await room()).status).toBe("ended");
});
