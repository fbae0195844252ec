// DONE-WHEN (issue 14), the event's communication pages (docs/specification.md §2.2): an organiser changes a value on
// each of general, order-confirmation, payment-reminder, order-confirmation-page and pdf-ticket, saves, reloads, and
// the value stays; the confirmation's preview shows the new subject and text; "Send test mail" puts a mail with the
// new text in the data folder; the PDF ticket's preview answers a PDF.
import type { Page } from "@playwright/test";
import { expect, ORGANISER, test, uniquePath } from "../fixtures.ts";
import {
  asStaff,
  createEventThroughApi,
  newestMailTo,
  saveBackOfficeForm,
  signInToBackOffice,
} from "./ticket-office/office.ts";

const communicationNav = (page: Page) => page.getByRole("navigation", { name: "The event's communication" });

/** Opens a communication page through its navigation, fills `label` with `value`, saves, reloads: it stays. */
async function changeAndKeep(page: Page, link: string, label: string, value: string) {
  await communicationNav(page).getByRole("link", { name: link }).click();
  await page.getByLabel(label).fill(value);
  await saveBackOfficeForm(page);
  await page.reload();
  await expect(page.getByLabel(label)).toHaveValue(value);
}

test("an organiser edits each communication page, previews the mail and the PDF ticket, and sends a test mail", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("communication");
  const organiser = await asStaff(request, ORGANISER);
  const event = await createEventThroughApi(organiser, {
    name: `Communication ${path}`,
    frontend_title: "Spring Gala",
    frontend_path: path,
    start_date: "2030-04-12T16:00:00.000Z",
    end_date: "2030-04-12T22:00:00.000Z",
  });
  await organiser.post(`/events/${event.id}/articles`, { title: "Gala dinner", price: 9500, stock: 50 });

  const admin = await openPage();
  await signInToBackOffice(admin);
  await admin.goto(`/admin/events/${event.id}/communication`);
  await expect(admin).toHaveURL(new RegExp(`/admin/events/${event.id}/communication/general$`));
  const eventNav = admin.getByRole("navigation", { name: "The event's pages" });
  await expect(eventNav.getByRole("link", { name: "Communication" })).toHaveAttribute("aria-current", "page");

  await admin.getByLabel("Sender name").fill("Spring Gala team");
  await saveBackOfficeForm(admin);
  await admin.reload();
  await expect(admin.getByLabel("Sender name")).toHaveValue("Spring Gala team");

  await changeAndKeep(admin, "Payment reminder", "Subject (French)", "Merci de régler {{reference}}");
  await changeAndKeep(admin, "Confirmation page", "Page text (English)", "See you at the {{event}}!");
  await changeAndKeep(admin, "PDF ticket", "Text printed on each ticket (English)", "Doors open at 18:00");

  // The ticket's preview is a PDF, drawn from the form as it stands.
  const pdf = admin.waitForResponse((response) => response.url().endsWith("/communication/pdf-ticket-preview"));
  await admin.getByLabel("Text printed on each ticket (English)").fill("Doors open at 18:30, {{name}}");
  const answer = await pdf;
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("application/pdf");
  // A page of text and a QR code: a few KB (the body itself went to the blob the frame shows).
  expect((await answer.request().sizes()).responseBodySize).toBeGreaterThan(1_000);
  await expect(admin.getByTitle("Preview of the PDF ticket")).toHaveAttribute("src", /^blob:/);

  // The confirmation: the preview follows the unsaved text, then the test mail carries the saved one.
  await communicationNav(admin).getByRole("link", { name: "Confirmation email" }).click();
  await admin.getByLabel("Subject (English)").fill("Your gala seats, {{name}}");
  await admin.getByLabel("Opening text (English)").fill("Dear {{name}},\n\nWe saved you a seat at {{event}}.");
  await expect(admin.getByTestId("mail-preview-subject")).toContainText("Your gala seats, Alex Sample");
  await expect(
    admin.frameLocator('iframe[title="Preview of the email"]').getByText("We saved you a seat at Spring Gala."),
  ).toBeVisible();
  await saveBackOfficeForm(admin);
  await admin.reload();
  await expect(admin.getByLabel("Subject (English)")).toHaveValue("Your gala seats, {{name}}");

  await admin.getByRole("button", { name: "Send test mail" }).click();
  await expect(admin.getByText(`Test mail sent to ${ORGANISER.email}`)).toBeVisible();
  await expect
    .poll(() => {
      try {
        return newestMailTo(ORGANISER.email);
      } catch {
        return "";
      }
    })
    .toContain("[Test] Your gala seats, Alex Sample");
  const mail = newestMailTo(ORGANISER.email);
  expect(mail).toContain("We saved you a seat at Spring Gala.");
  expect(mail).toMatch(/^From: Spring Gala team <[^>]+>$/m);

  // Stored as the pages show them.
  expect(await organiser.get(`/events/${event.id}/communication`)).toMatchObject({
    sender_name: "Spring Gala team",
    payment_reminder_subject_fr: "Merci de régler {{reference}}",
    confirmation_page_text_en: "See you at the {{event}}!",
    pdf_ticket_text_en: "Doors open at 18:00",
    order_confirmation_subject_en: "Your gala seats, {{name}}",
  });
});
