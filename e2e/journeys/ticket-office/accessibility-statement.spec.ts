// Issue 33: the accessibility statement, linked from the ticket office's footer on every page, in English and French,
// with JavaScript off and on; axe checks every page the journey visits.
import { expect, test } from "../../fixtures.ts";

const LANGUAGES = [
  {
    locale: "en-GB",
    legal: "Legal information",
    link: "Accessibility statement",
    title: "Accessibility statement",
    headings: [
      "The standard we aim at",
      "Compliance status",
      "Known limitations",
      "Report a barrier",
      "Enforcement procedure",
      "About this statement",
    ],
    standard: "WCAG) 2.2 at level AA",
    renewals: "up to 10 times by default",
    date: "28 November 2026",
    subject: "Accessibility barrier",
  },
  {
    locale: "fr-CH",
    legal: "Informations légales",
    link: "Déclaration d'accessibilité",
    title: "Déclaration d'accessibilité",
    headings: [
      "La norme visée",
      "État de conformité",
      "Limites connues",
      "Signaler un obstacle",
      "Voies de recours",
      "À propos de cette déclaration",
    ],
    standard: "(WCAG) 2.2, niveau AA",
    renewals: "jusqu'à 10 fois par défaut",
    date: "28 novembre 2026",
    subject: "Obstacle d'accessibilité",
  },
];

for (const javaScriptEnabled of [false, true]) {
  for (const language of LANGUAGES) {
    test.describe(`${language.locale} with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
      test.use({ javaScriptEnabled, locale: language.locale, accessibilityCheck: true });

      test("a visitor finds the accessibility statement in the footer and reads it", async ({ page }) => {
        await page.goto("/tickets/demo");
        const footer = page.getByRole("contentinfo").getByRole("navigation", { name: language.legal });
        await footer.getByRole("link", { name: language.link }).click();

        await expect(page).toHaveURL(/\/legal\/accessibility$/);
        await expect(page).toHaveTitle(language.title);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(language.title);
        await expect(page.getByRole("heading", { level: 2 })).toHaveText(language.headings);
        await expect(page.getByText(language.standard)).toBeVisible();
        await expect(page.getByText(language.renewals)).toBeVisible();
        await expect(page.getByText(language.date)).toBeVisible();
        // Whom to write to is the instance's support address (SUPPORT_EMAIL, GET /config), in a mail about the barrier.
        await expect(page.getByRole("link", { name: "support@example.org" })).toHaveAttribute(
          "href",
          `mailto:support@example.org?subject=${encodeURIComponent(language.subject)}`,
        );
      });
    });
  }
}
