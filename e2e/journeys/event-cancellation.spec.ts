// Issue 35, cancelling an event (docs/decisions/0047): a guest buys a ticket; the organiser cancels the event from its
// status settings with a message in English and French, confirms what the dialog says will happen and sees the order
// refunded; the ticket office then says the event is cancelled, with the message in the visitor's language, with
// JavaScript off.
import { expect, test, uniquePath } from "../fixtures.ts";
import {
  addArticle,
  eventOnSale,
  fillBillingInformation,
  guestOnBuyPage,
  payOnDemoPage,
  signInToBackOffice,
} from "./ticket-office/office.ts";

const MESSAGE = "The hall flooded last night.\nWe are so sorry.";
const MESSAGE_FR = "La salle a été inondée cette nuit.\nNous sommes désolés.";

test("an organiser cancels an event: its order is refunded and the ticket office says so", async ({
  page,
  openPage,
  request,
}) => {
  const path = uniquePath("cancelled-concert");
  const { event } = await eventOnSale(
    request,
    {
      name: `Cancelled ${path}`,
      frontend_title: "Harbour Concert",
      frontend_path: path,
      start_date: "2030-08-20T18:00:00.000Z",
      end_date: "2030-08-20T22:00:00.000Z",
    },
    { articles: [{ title: "Seat", price: 4000, stock: 20 }] },
  );

  // A guest buys one seat, paid on the demo provider's page.
  const buyer = await openPage();
  await guestOnBuyPage(buyer, `/tickets/${path}`);
  await addArticle(buyer, "Seat");
  await buyer.getByRole("link", { name: "Checkout" }).click();
  await fillBillingInformation(buyer, "harbour@example.org");
  await payOnDemoPage(buyer, "40.00");

  // The organiser cancels it from the status settings.
  await signInToBackOffice(page);
  await page.goto(`/admin/events/${event.id}/settings/status`);
  const section = page.getByRole("region", { name: "Cancel this event" });
  await expect(section).toContainText("Paid orders refunded through their payment module: 1.");
  await section.getByRole("button", { name: "Cancel this event…" }).click();
  // Both messages are needed.
  await expect(section.getByText("Required")).toHaveCount(2);
  await section.getByRole("textbox", { name: "Message to buyers (English)" }).fill(MESSAGE);
  await section.getByRole("textbox", { name: "Message to buyers (French)" }).fill(MESSAGE_FR);
  await section.getByRole("button", { name: "Cancel this event…" }).click();
  const confirmation = page.getByRole("dialog");
  await expect(confirmation).toContainText("1 paid orders will be refunded through their payment module");
  await expect(confirmation).toContainText("This cannot be undone.");
  await confirmation.getByRole("button", { name: "Cancel the event" }).click();

  const progress = page.getByRole("region", { name: "This event is cancelled" });
  await expect(progress).toContainText("1 of 1 paid orders refunded");
  await expect(progress).toContainText("We are so sorry.");
  // Only archiving is left of its status.
  await page.getByRole("combobox", { name: "Status" }).click();
  await expect(page.getByRole("option")).toHaveText(["Closed", "Archived"]);
  await page.keyboard.press("Escape");

  // The ticket office, in French, without JavaScript, on a phone.
  const french = await openPage({ locale: "fr-CH", javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  for (const step of ["", "/buy"]) {
    await french.goto(`/tickets/${path}${step}`);
    const notice = french.getByRole("note").filter({ hasText: "Cet événement est annulé" });
    await expect(notice).toContainText("La salle a été inondée cette nuit.");
    await expect(notice).not.toContainText("The hall flooded");
  }
  await french.goto(`/tickets/${path}/buy`);
  await expect(french.getByRole("button", { name: "Ajouter au panier" })).toHaveCount(0);
});
