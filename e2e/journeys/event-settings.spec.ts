// DONE-WHEN (issue 14), the event's settings pages (docs/specification.md §2.2): an organiser changes a value on each
// of status, dates, auth and payment, saves, reloads, and the value stays (in the form and in the API); an unknown
// sub-path of an event is the back office's 404 page, never another page.
import type { Page } from "@playwright/test";
import { expect, ORGANISER, test, typeDateTime, uniquePath } from "../fixtures.ts";
import {
  approveThroughApi,
  asStaff,
  createEventThroughApi,
  saveBackOfficeForm,
  signInToBackOffice,
} from "./ticket-office/office.ts";

const settingsNav = (page: Page) => page.getByRole("navigation", { name: "The event's settings" });

test("an organiser changes each settings page of an event, and unknown sub-paths are the 404 page", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("settings");
  const organiser = await asStaff(request, ORGANISER);
  // A unit of its own: its Stripe account is set below without touching the demo unit's.
  const unit = await organiser.post("/units", { name: `Settings ${path}`, address: "Avenue de Rhodanie 2, Lausanne" });
  const event = await createEventThroughApi(organiser, {
    unit_id: unit.id,
    name: `Settings ${path}`,
    frontend_title: "Autumn Fair",
    frontend_path: path,
    start_date: "2030-09-12T16:00:00.000Z",
    end_date: "2030-09-12T22:00:00.000Z",
  });
  const stored = async () => organiser.get(`/events/${event.id}`);

  // Zurich's time: the pickers show local time, the wire is UTC.
  const admin = await openPage({ timezoneId: "Europe/Zurich" });
  await signInToBackOffice(admin);

  // The event's address opens the editor; its navigation leads to the settings, which open on the status page.
  await admin.goto(`/admin/events/${event.id}`);
  await expect(admin).toHaveURL(new RegExp(`/admin/events/${event.id}/edit$`));
  await expect(admin.getByRole("tab", { name: "Display" })).toHaveAttribute("aria-selected", "true");
  const eventNav = admin.getByRole("navigation", { name: "The event's pages" });
  await expect(eventNav.getByRole("link", { name: "Edit" })).toHaveAttribute("aria-current", "page");
  // A draft: its ticket office is offered as a preview only.
  await expect(eventNav.getByRole("link", { name: "Preview ticket office" })).toBeVisible();
  await expect(eventNav.getByRole("link", { name: "Open ticket office" })).toHaveCount(0);
  await eventNav.getByRole("link", { name: "Settings" }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/events/${event.id}/settings/status$`));

  // Dates: the registrations window (Zurich in summer is UTC+2).
  await settingsNav(admin).getByRole("link", { name: "Dates" }).click();
  await expect(admin).toHaveURL(/\/settings\/dates$/);
  await typeDateTime(admin, "Registrations open", "060120300900AM");
  await typeDateTime(admin, "Registrations close", "091020300630PM");
  await saveBackOfficeForm(admin);
  await admin.reload();
  await expect(admin.getByRole("group", { name: "Registrations open" })).toContainText(/06.*01.*2030.*09.*00.*AM/);
  await expect(admin.getByRole("group", { name: "Registrations close" })).toContainText(/09.*10.*2030.*06.*30.*PM/);
  expect(await stored()).toMatchObject({
    registrations_start_date: "2030-06-01T07:00:00.000Z",
    registrations_end_date: "2030-09-10T16:30:00.000Z",
  });

  // Auth: trusted-email logins besides guests.
  await settingsNav(admin).getByRole("link", { name: "Sign-in" }).click();
  await expect(admin.getByRole("checkbox", { name: "Anonymous (guest)" })).toBeChecked();
  await admin.getByRole("checkbox", { name: "Trusted email" }).check();
  await saveBackOfficeForm(admin);
  await admin.reload();
  await expect(admin.getByRole("checkbox", { name: "Trusted email" })).toBeChecked();
  expect((await stored()).access_methods).toEqual(["anonymous", "trusted_email"]);

  // Payment: Stripe is refused while the unit has no account, with the API's message on the field.
  await settingsNav(admin).getByRole("link", { name: "Payment" }).click();
  await admin.getByRole("combobox", { name: "Online payment" }).click();
  await admin.getByRole("option", { name: "Stripe" }).click();
  await admin.getByRole("button", { name: /^save$/i }).click();
  // The field's helper text (a toast says it too).
  await expect(admin.locator("p").filter({ hasText: /The unit's Stripe account is not set: an owner/ })).toBeVisible();
  await organiser.put(`/units/${unit.id}/stripe`, {
    secret_key: `sk_test_${path.replace(/[^a-z0-9]/gi, "")}`,
    webhook_secret: "whsec_0123456789abcdef",
  });
  await admin.reload();
  await admin.getByRole("combobox", { name: "Online payment" }).click();
  await admin.getByRole("option", { name: "Stripe" }).click();
  await admin.getByLabel("Point-of-sale payment enabled").check();
  await saveBackOfficeForm(admin);
  const points = admin.getByRole("region", { name: "Points of sale" });
  await points.getByRole("textbox", { name: "Point of sale", exact: true }).fill("Front desk");
  await points.getByRole("textbox", { name: "Point of sale location", exact: true }).fill("Main hall");
  await points.getByRole("button", { name: "Add the point of sale" }).click();
  await expect(points.getByRole("row").filter({ hasText: "Front desk" })).toContainText("Main hall");
  await admin.reload();
  await expect(admin.getByRole("combobox", { name: "Online payment" })).toHaveText("Stripe");
  await expect(admin.getByLabel("Point-of-sale payment enabled")).toBeChecked();
  await expect(points.getByRole("row").filter({ hasText: "Front desk" })).toContainText("Main hall");
  expect(await stored()).toMatchObject({ online_payment_module: "stripe", is_point_of_sale_enabled: true });

  // Status, last (a public event is locked for its organiser): once approved, the organiser makes it public.
  await settingsNav(admin).getByRole("link", { name: "Status" }).click();
  await approveThroughApi(request, event.id);
  await admin.reload();
  await admin.getByRole("combobox", { name: "Status" }).click();
  await admin.getByRole("option", { name: "Public" }).click();
  await saveBackOfficeForm(admin);
  await admin.reload();
  await expect(admin.getByRole("combobox", { name: "Status" })).toHaveText("Public");
  expect((await stored()).status).toBe("public");
  // Public now: the ticket office opens, and the other settings are read-only for the organiser.
  await expect(eventNav.getByRole("link", { name: "Open ticket office" })).toHaveAttribute("href", /\/tickets\//);
  await settingsNav(admin).getByRole("link", { name: "Sign-in" }).click();
  await expect(admin.getByRole("checkbox", { name: "Trusted email" })).toBeDisabled();
  await expect(admin.getByRole("button", { name: /^save$/i })).toHaveCount(0);

  // Unknown sub-paths of the event: the 404 page, not the editor nor a settings page.
  for (const unknown of ["nope", "settings/nope", "communication/nope", "edit/nope"]) {
    await admin.goto(`/admin/events/${event.id}/${unknown}`);
    await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expect(admin.getByRole("tab", { name: "Display" })).toHaveCount(0);
    await expect(admin.getByRole("button", { name: /^save$/i })).toHaveCount(0);
  }
});
