// Issue 5 (docs/design.md §7): the language switch turns the ticket office, and the API's messages, into French.
import { expect, test } from "../../fixtures.ts";
import { expectAccessible, fillFrenchBillingInformation } from "./office.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`French with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a visitor switches to French and buys in French", async ({ page }) => {
      await page.goto("/tickets/demo");
      await expect(page.getByRole("link", { name: "Buy tickets" })).toBeVisible();
      await page.getByRole("button", { name: "Français" }).click();
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await expect(page.getByRole("button", { name: "Français" })).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByText("Quand")).toBeVisible();
      await page.getByRole("link", { name: "Acheter des billets" }).click();

      await expect(page.getByRole("heading", { name: "Connexion" })).toBeVisible();
      await page.getByRole("button", { name: "Continuer en tant qu'invité" }).click();
      await expect(page.getByRole("heading", { name: "Choisissez vos billets" })).toBeVisible();
      await expectAccessible(page, { javaScriptEnabled });

      // The API answers in French too.
      await page.getByRole("textbox", { name: "Saisissez un code promotionnel" }).fill("INCONNU");
      await page.getByRole("button", { name: "Appliquer" }).click();
      await expect(page.getByText("Ce code promotionnel n'est pas valable")).toBeVisible();

      // The demo's day pass in French: as seeded, or as the bilingual-content journey rewrites it.
      const frenchDayPass = /^Pass (journée|d'un jour)$/;
      const dayPass = page.getByRole("article", { name: frenchDayPass });
      await expect(dayPass).toContainText("45.00");
      await expect(dayPass.getByText("Disponible")).toBeVisible();
      await dayPass.getByRole("button", { name: "Ajouter au panier" }).click();
      const basket = page.getByRole("complementary", { name: "Votre panier" });
      await expect(basket).toContainText(/Pass (journée|d'un jour)/);
      await basket.getByRole("link", { name: "Passer la commande" }).click();

      await expect(page.getByRole("heading", { name: "Informations de facturation" })).toBeVisible();
      await page.getByRole("button", { name: "Continuer" }).click();
      await expect(page.getByText("Il y a un problème")).toBeVisible();
      await fillFrenchBillingInformation(page);

      await page.getByRole("checkbox", { name: "J'accepte les conditions générales" }).check();
      await page.getByRole("button", { name: "Payer maintenant" }).click();
      // The demo provider's page speaks the language the buyer checked out in, whatever the browser says.
      await expect(page.getByRole("heading", { name: "Paiement de démonstration" })).toBeVisible();
      await page.getByRole("button", { name: /^Payer\s*45[.,]00\s*CHF$|^Payer CHF\s*45[.,]00$/ }).click();
      const heading = page.getByRole("heading", { name: /Merci pour votre commande|Paiement reçu/ });
      await heading.waitFor();
      if (!(await heading.textContent())?.startsWith("Merci"))
        await page.getByRole("link", { name: "Voir votre commande" }).click();
      await expect(page.getByRole("heading", { name: "Merci pour votre commande" })).toBeVisible();
    });
  });
}
