// DONE-WHEN (issue 17), the widgets' demo pages: a superuser sees every widget at /admin/demo/inputs and
// /admin/demo/buttons/:path and uses each as a person would (the alert closes, numbers are checked and clamped,
// Enter saves and Esc restores, toasts come and go, the confirm answers); an organiser is refused with the Access
// denied page; an anonymous visitor is sent to the login page. And the widgets at work: a delete in the back office
// asks through the confirm dialog first.
import type { Page } from "@playwright/test";
import { expect, MODERATOR, ORGANISER, test, uniquePath } from "../fixtures.ts";
import { asStaff, createEventThroughApi, signInToBackOffice } from "./ticket-office/office.ts";

const field = (page: Page, label: string) => page.getByRole("textbox", { name: label, exact: true });
const section = (page: Page, name: string) => page.getByRole("region", { name });

test("a superuser sees and uses every widget of the demo pages", async ({ openPage }) => {
  const page = await openPage();
  await signInToBackOffice(page, MODERATOR); // the seeded moderator is a superuser
  await page.goto("/admin/demo/inputs");
  await expect(page.getByRole("heading", { name: "Widget demo: inputs", level: 1 })).toBeVisible();

  // Alerts: the five states, closable; the one that closes itself.
  const alerts = section(page, "Alerts");
  for (const text of ["An information alert", "A warning alert", "An error alert", "A danger alert", "A success alert"])
    await expect(alerts.getByRole("alert").filter({ hasText: text })).toBeVisible();
  await alerts.getByRole("alert").filter({ hasText: "A warning alert" }).getByRole("button", { name: "Close" }).click();
  await expect(alerts.getByText("A warning alert")).toBeHidden();
  await expect(alerts.getByText("This alert closes itself after 5 seconds")).toBeHidden({ timeout: 15_000 });
  await alerts.getByRole("button", { name: "Show the alerts again" }).click();
  await expect(alerts.getByText("A warning alert")).toBeVisible();

  // Numbers: clamped to max, 2 decimals at most, required, step buttons, read-only and disabled.
  const numbers = section(page, "Number inputs");
  const whole = field(page, "Whole number from 0 to 10");
  await whole.fill("25");
  await whole.press("Tab");
  await expect(whole).toHaveValue("10");
  await expect(numbers.getByText("Saved: 10")).toBeVisible();
  await numbers.getByRole("button", { name: "Subtract 1" }).first().click();
  await expect(whole).toHaveValue("9");
  const amount = field(page, "Amount in CHF (2 decimals)");
  await amount.fill("12.345");
  await amount.press("Tab");
  await expect(numbers.getByText("Enter a valid number")).toBeVisible();
  await amount.fill("12,35");
  await amount.press("Tab");
  await expect(numbers.getByText("Enter a valid number")).toBeHidden();
  await expect(numbers.getByText("Saved: 12.35")).toBeVisible();
  await field(page, "Checked on blur, step 5").focus();
  await numbers.getByRole("button", { name: "Add 5" }).click();
  await expect(field(page, "Checked on blur, step 5")).toHaveValue("25");
  await expect(field(page, "Read-only number")).toHaveAttribute("readonly", "");
  await expect(field(page, "Disabled number")).toBeDisabled();

  // Texts: hints while changed, Enter saves, Esc restores, validator, password masking, read-only.
  const texts = section(page, "Text inputs");
  const plain = field(page, "Text");
  await plain.fill("Lausanne-Ouchy");
  await expect(texts.getByText("Enter or Tab to save")).toBeVisible();
  await expect(texts.getByText("Esc to cancel")).toBeVisible();
  await plain.press("Enter");
  await expect(texts.getByText("Saved: Lausanne-Ouchy")).toBeVisible();
  await expect(texts.getByText("Enter or Tab to save")).toBeHidden();
  await plain.fill("Geneva");
  await plain.press("Escape");
  await expect(plain).toHaveValue("Lausanne-Ouchy");
  const validated = field(page, "Starts with a capital letter");
  await validated.fill("festival");
  await validated.press("Enter");
  await expect(texts.getByText("Should start with a capital letter")).toBeVisible();
  const password = texts.getByLabel("Password", { exact: true });
  await expect(password).toHaveAttribute("type", "password");
  await texts.getByRole("button", { name: "Show the password" }).click();
  await expect(password).toHaveAttribute("type", "text");
  await expect(field(page, "Read-only text")).toHaveAttribute("readonly", "");
  await expect(field(page, "At most 20 characters")).toHaveAttribute("maxlength", "20");

  // Buttons: each variant is a path; the states, toasts, confirm/prompt, popover and tooltip.
  await page.goto("/admin/demo/buttons/outlined");
  await expect(page.getByRole("heading", { name: "Widget demo: buttons (outlined)", level: 1 })).toBeVisible();
  await page.getByRole("tab", { name: "Contained" }).click();
  await expect(page).toHaveURL(/\/admin\/demo\/buttons\/contained$/);
  const buttons = section(page, "Buttons");
  await expect(buttons.getByRole("button", { name: "Enabled" })).toHaveCount(4);
  await expect(buttons.getByRole("button", { name: "Disabled" }).first()).toBeDisabled();
  await expect(buttons.getByRole("button", { name: "Busy" }).first()).toBeDisabled();

  const toasts = page.getByRole("region", { name: "Notifications" });
  await page.getByRole("button", { name: "Show a toast of type success" }).click();
  await page.getByRole("button", { name: "Show a toast that stays" }).click();
  await expect(toasts.getByRole("alert").filter({ hasText: "A toast of type success" })).toBeVisible();
  await expect(toasts.getByRole("alert").filter({ hasText: "This toast stays until it is closed" })).toBeVisible();
  await expect(toasts.getByText("A toast of type success")).toBeHidden({ timeout: 15_000 });
  await expect(toasts.getByText("This toast stays until it is closed")).toBeVisible();
  await toasts.getByRole("button", { name: "Close" }).click();
  await expect(toasts.getByRole("alert")).toHaveCount(0);

  await page.getByRole("button", { name: "Ask for confirmation" }).click();
  await page.getByRole("dialog", { name: "Delete the example?" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Answer: true")).toBeVisible();
  await page.getByRole("button", { name: "Ask for confirmation" }).click();
  await page.getByRole("dialog", { name: "Delete the example?" }).getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("Answer: false")).toBeVisible();
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByRole("button", { name: "Ask with an input" }).click();
  const prompt = page.getByRole("dialog", { name: "Leave a comment" });
  await expect(prompt.getByRole("button", { name: "Confirm" })).toBeDisabled();
  await prompt.getByRole("textbox", { name: "Comment" }).fill("See you there");
  await prompt.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Answer: true, text: See you there")).toBeVisible();

  await page.getByRole("button", { name: "Open the popover" }).click();
  await expect(page.getByRole("dialog").getByText("A popover: click away or press Esc to close it.")).toBeVisible();
  await page.getByRole("heading", { level: 1 }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByText("Hover for a tooltip").hover();
  await expect(page.getByRole("tooltip", { name: "A tooltip" })).toBeVisible();
  await page.getByRole("heading", { level: 1 }).hover();
  await expect(page.getByRole("tooltip")).toBeHidden();

  await page.goto("/admin/demo/buttons/nothing-here");
  await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();

  // The same pages in French, on a phone.
  const french = await openPage({ viewport: { width: 390, height: 844 } });
  await signInToBackOffice(french, MODERATOR);
  await french.evaluate(() => window.localStorage.setItem("language", "fr"));
  await french.goto("/admin/demo/inputs");
  await expect(french.getByRole("heading", { name: "Démo des composants : champs", level: 1 })).toBeVisible();
  await expect(french.getByText("Une alerte de danger")).toBeVisible();
  await french.screenshot({ path: test.info().outputPath("inputs-fr-phone.png"), fullPage: true });
  await french.goto("/admin/demo/buttons/text");
  await expect(french.getByRole("heading", { name: "Démo des composants : boutons (text)", level: 1 })).toBeVisible();
  await french.screenshot({ path: test.info().outputPath("buttons-fr-phone.png"), fullPage: true });
});

test("an organiser is refused the demo pages with the Access denied page", async ({ openPage }) => {
  const page = await openPage();
  await signInToBackOffice(page, ORGANISER);
  for (const path of ["/admin/demo/inputs", "/admin/demo/buttons/contained"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: "Access denied", level: 1 })).toBeVisible();
    await expect(page.getByText("You don't have the required permissions")).toBeVisible();
    await expect(page.getByRole("region", { name: "Alerts" })).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Buttons" })).toHaveCount(0);
  }
});

test("an anonymous visitor of the demo pages is sent to the login page", async ({ openPage }) => {
  const page = await openPage();
  for (const path of ["/admin/demo/inputs", "/admin/demo/buttons/contained"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/admin\/(auth\/)?login/);
    await expect(page.getByLabel(/^E-?mail/)).toBeVisible();
    await expect(page.getByRole("region", { name: "Alerts" })).toHaveCount(0);
  }
});

test("an organiser's delete of an event asks through the confirm dialog first", async ({ openPage, request }) => {
  const path = uniquePath("delete-me");
  const organiser = await asStaff(request, ORGANISER);
  const event = await createEventThroughApi(organiser, {
    name: `Delete me ${path}`,
    frontend_title: "Delete me",
    frontend_path: path,
    start_date: "2030-10-03T16:00:00.000Z",
    end_date: "2030-10-03T22:00:00.000Z",
  });
  const page = await openPage();
  await signInToBackOffice(page, ORGANISER);
  await page.goto(`/admin/events/${event.id}/edit`);
  await page.getByRole("toolbar").getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: `Delete event Delete me ${path}` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect((await organiser.get(`/events/${event.id}`)).id).toBe(event.id); // still there

  await page.getByRole("toolbar").getByRole("button", { name: "Delete" }).click();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/admin\/events$/);
  await expect(page.getByRole("region", { name: "Notifications" }).getByText("Element deleted")).toBeVisible();
  const gone = await request.get(`/api/v1/events/${event.id}`, {
    headers: {
      authorization: `Bearer ${(await (await request.post("/api/v1/auth/login", { data: ORGANISER })).json()).access_token}`,
    },
  });
  expect(gone.status()).toBe(404);
});
