// DONE-WHEN (issue 34, docs/decisions/0043): an organiser gives the demo's day pass a French title and description in
// the back office; a buyer with a French browser and JavaScript off reads them on the buy page, in the mail and on
// the PDF ticket and invoice; an English buyer reads the English ones; a text left empty in French shows the English.
import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { downloaded, expect, ORGANISER, pdfFile, test } from "../../fixtures.ts";
import {
  asStaff,
  DEMO_EVENT_ID,
  fillFrenchBillingInformation,
  newestMailTo,
  putOnSaleThroughApi,
  signInToBackOffice,
} from "./office.ts";

const FRENCH_TITLE = "Pass d'un jour";
const FRENCH_DESCRIPTION = "Entrée un jour au choix, le samedi ou le dimanche.";
/** The option whose French the organiser empties: French buyers read its English. */
const LUNCH = "Lunch voucher";

/** The text of a PDF the buyer downloads from the link named `name`, as a person reads it (pdftotext). */
async function pdfText(page: Page, name: string | RegExp) {
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name }).first().click();
  const pdf = await downloaded(await downloading);
  return execFileSync("pdftotext", ["-layout", pdfFile(pdf), "-"]).toString();
}

/** A mail as its reader sees it: quoted-printable undone, then its bytes read as UTF-8. */
const mailText = (to: string) => Buffer.from(newestMailTo(to), "latin1").toString("utf8");

/** Saves the element open in the editor, once the API has taken the write. */
async function saveElement(admin: Page) {
  const written = admin.waitForResponse(
    (response) => /\/node-configurations\/\d+$/.test(response.url()) && response.request().method() === "PUT",
  );
  await admin.getByRole("button", { name: "Save the element" }).click();
  expect((await written).ok()).toBe(true);
}

/** In the back office's element editor: opens `title`'s element. */
async function openElement(admin: Page, title: string) {
  await admin
    .getByRole("list", { name: "Elements" })
    .getByRole("button", { name: new RegExp(`^${title}`) })
    .click();
  await expect(admin.getByRole("heading", { name: `Element: ${title}` })).toBeVisible();
}

test("an organiser writes the day pass in French; a French buyer reads it on the buy page, in the mail and on the PDFs, an English buyer the English, an empty French the English", async ({
  openPage,
  request,
}) => {
  // The demo is on sale, so locked: the organiser sets it back to draft, writes, and has it approved again.
  const organiser = await asStaff(request, ORGANISER);
  await organiser.put(`/events/${DEMO_EVENT_ID}`, { status: "draft" });
  // Whatever happens, the demo goes back on sale: the journeys after this one buy from it.
  try {
    const admin = await openPage();
    await signInToBackOffice(admin);
    await admin.goto(`/admin/events/${DEMO_EVENT_ID}/edit`);
    await admin.getByRole("tab", { name: "Configuration" }).click();
    await openElement(admin, "Day pass");
    // Side by side with the English, which stays as it is.
    await expect(admin.getByRole("textbox", { name: "Element title", exact: true })).toHaveValue("Day pass");
    await admin.getByRole("textbox", { name: "Element title (French)" }).fill(FRENCH_TITLE);
    await admin.getByRole("textbox", { name: "Element description (French)" }).fill(FRENCH_DESCRIPTION);
    await saveElement(admin);
    // The lunch voucher's French emptied: the back office says French buyers will read the English.
    await openElement(admin, LUNCH);
    await admin.getByRole("textbox", { name: "Element title (French)" }).fill("");
    await expect(admin.getByRole("textbox", { name: "Element title (French)" })).toHaveAccessibleDescription(
      "Missing in French: buyers who read French see the English.",
    );
    await saveElement(admin);
  } finally {
    // Unchanged since it was set back to draft, the demo is still approved and goes public as it is.
    const { moderation_status } = await organiser.get(`/events/${DEMO_EVENT_ID}`);
    if (moderation_status === "validated") await organiser.put(`/events/${DEMO_EVENT_ID}`, { status: "public" });
    else await putOnSaleThroughApi(request, DEMO_EVENT_ID);
  }

  // A French browser, JavaScript off.
  const french = await openPage({ locale: "fr-CH", javaScriptEnabled: false });
  await french.goto("/tickets/demo");
  await expect(french.getByRole("heading", { name: "Festival de jazz du lac 2027" })).toBeVisible();
  await french.getByRole("link", { name: "Acheter des billets" }).click();
  await french.getByRole("button", { name: "Continuer en tant qu'invité" }).click();
  await expect(french.getByRole("heading", { name: "Choisissez vos billets" })).toBeVisible();
  const dayPass = french.getByRole("article", { name: FRENCH_TITLE });
  await expect(dayPass).toContainText(FRENCH_DESCRIPTION);
  await expect(french.getByRole("article", { name: "Day pass" })).toHaveCount(0);
  await expect(french.getByRole("article", { name: "Pass week-end" })).toBeVisible();
  await dayPass.getByRole("checkbox", { name: new RegExp(LUNCH) }).check();
  await dayPass.getByRole("button", { name: "Ajouter au panier" }).click();
  const basket = french.getByRole("complementary", { name: "Votre panier" });
  await expect(basket).toContainText(FRENCH_TITLE);
  await expect(basket).toContainText(LUNCH);
  await basket.getByRole("link", { name: "Passer la commande" }).click();
  const email = `marie-${Date.now().toString(36)}@example.org`;
  await expect(french.getByRole("heading", { name: "Informations de facturation" })).toBeVisible();
  await fillFrenchBillingInformation(french, email);
  await french.getByRole("checkbox", { name: "J'accepte les conditions générales" }).check();
  await french.getByRole("button", { name: "Payer maintenant" }).click();
  await french.getByRole("button", { name: /^Payer\s*60[.,]00\s*CHF$|^Payer CHF\s*60[.,]00$/ }).click();
  const heading = french.getByRole("heading", { name: /Merci pour votre commande|Paiement reçu/ });
  await heading.waitFor();
  if (!(await heading.textContent())?.startsWith("Merci"))
    await french.getByRole("link", { name: "Voir votre commande" }).click();
  await expect(french.getByRole("heading", { name: "Merci pour votre commande" })).toBeVisible();

  await expect.poll(() => mailText(email)).toContain(FRENCH_TITLE);
  const mail = mailText(email);
  expect(mail).toContain("Festival de jazz du lac 2027");
  expect(mail).toContain(LUNCH);
  expect(mail).not.toContain("Day pass");
  const ticket = await pdfText(french, "Télécharger le billet");
  expect(ticket).toContain(FRENCH_TITLE);
  expect(ticket).not.toContain("Day pass");
  const invoice = await pdfText(french, /^Télécharger la facture/);
  expect(invoice).toContain(FRENCH_TITLE);
  expect(invoice).toContain(LUNCH);

  // An English browser, JavaScript on: the English, as written.
  const english = await openPage({ locale: "en-GB" });
  await english.goto("/tickets/demo");
  await expect(english.getByRole("heading", { name: "Lakeside Jazz Festival 2027" })).toBeVisible();
  await english.getByRole("link", { name: "Buy tickets" }).click();
  await english.getByRole("button", { name: "Continue as guest" }).click();
  const englishDayPass = english.getByRole("article", { name: "Day pass" });
  await expect(englishDayPass).toContainText("Entry on Saturday or Sunday.");
  await expect(englishDayPass).toContainText(LUNCH);
  await expect(english.getByText(FRENCH_TITLE)).toHaveCount(0);
});
