// The accessibility check every journey runs (e2e/accessibility.ts) finds what it must: a page with text too pale
// to read and an image without a text alternative fails a journey, with JavaScript on and off.
import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures.ts";

const PROBE = "/accessibility-probe";

/**
 * A page of this site with two WCAG violations: 2.3:1 text (1.4.3) and an image with no alternative (1.1.1). Each
 * test's has a class of its own: a page's shape is checked once per run.
 */
async function openProbe(page: Page, variant: string) {
  await page.route(`**${PROBE}`, (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="en"><head><title>Probe</title></head><body class="probe-${variant}"><main><h1>Probe</h1>
        <p style="color:#aaaaaa;background:#ffffff">Too pale to read</p>
        <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="40" height="40"></main></body></html>`,
    }),
  );
  await page.goto(PROBE);
  await expect(page.getByRole("heading", { name: "Probe" })).toBeVisible();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled, accessibilityCheck: true });

    test("finds the page's violations: the pale text and the image without alternative", async ({
      page,
      accessibilityViolations,
    }) => {
      await openProbe(page, `found-${javaScriptEnabled ? "on" : "off"}`);
      await expect
        .poll(() => accessibilityViolations.map((violation) => violation.split(" ")[1]).sort())
        .toEqual(["color-contrast", "image-alt"]);
      expect(accessibilityViolations.join("\n")).toContain(PROBE);
      // Found: this journey is done with them (the one below leaves them to fail it).
      accessibilityViolations.length = 0;
    });

    test("fails the journey that visits such a page", async ({ page }) => {
      test.fail();
      await openProbe(page, `fails-${javaScriptEnabled ? "on" : "off"}`);
    });
  });
}
