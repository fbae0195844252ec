// DONE-WHEN (issue 10, finding 3): the back office and the ticket office run under their Content-Security-Policy
// with no violation. Every journey fails on a violation (fixtures.ts `cspViolations`), the purchases with
// JavaScript on and off included; these check that the policies are sent, that the watcher does see a refusal,
// and walk a signed-in back office through its list, its editor and a save.
import { expect, ORGANISER, test, typeDateTime, uniquePath } from "../fixtures.ts";

const NONCE = /'nonce-[A-Za-z0-9+/]+=*'/;

test("the ticket office's policy runs its own script and refuses an injected one, which the watcher reports", async ({
  page,
  cspViolations,
}) => {
  const response = await page.goto("/");
  const policy = response?.headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(new RegExp(`script-src 'self' ${NONCE.source}`));
  expect(policy).toContain("frame-ancestors 'none'");
  // The inline script carries the nonce, so it ran: Turbo drives the page.
  await expect.poll(() => page.evaluate(() => "Turbo" in window)).toBe(true);

  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.injected = true";
    document.head.append(script);
  });
  // Reported twice: by the document's `securitypolicyviolation` event and by the browser's console.
  await expect.poll(() => cspViolations.length).toBe(2);
  expect(cspViolations.join("\n")).toContain("script-src");
  expect(await page.evaluate(() => "injected" in window)).toBe(false);
  cspViolations.length = 0; // refused on purpose: not a failure of this journey
});

test("Turbo's progress bar and page swaps stay within the ticket office's policy", async ({ page }) => {
  await page.goto("/");
  await expect.poll(() => page.evaluate(() => "Turbo" in window)).toBe(true);
  // The bar (a <style> Turbo adds with the nonce of the page's meta) shows at once instead of after 500 ms.
  await page.evaluate(() => {
    (
      window as unknown as { Turbo: { config: { drive: { progressBarDelay: number } } } }
    ).Turbo.config.drive.progressBarDelay = 0;
  });
  await page.getByRole("link", { name: "Imprint" }).click();
  await expect(page).toHaveURL(/\/legal\/imprint$/);
  await page.getByRole("link", { name: "Ticket office" }).click();
  await expect(page.getByRole("heading", { name: "Events" })).toBeVisible();
  // Swapped by Turbo (no reload), with the progress bar's style applied.
  expect(await page.evaluate(() => "Turbo" in window)).toBe(true);
  expect(
    await page.locator("style").evaluateAll((styles) => styles.map((style) => style.textContent).join("")),
  ).toContain("turbo-progress-bar");
});

test("an organiser signs in to the back office, opens an event's editor and its graph, and saves a change", async ({
  openPage,
}) => {
  const admin = await openPage();
  const response = await admin.goto("/admin/");
  const policy = response?.headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(new RegExp(`style-src 'self' ${NONCE.source}`));
  expect(policy).toContain("script-src 'self';");

  await admin.getByLabel("Email").fill(ORGANISER.email);
  await admin.getByLabel("Password").fill(ORGANISER.password);
  await admin.getByRole("button", { name: "Sign in" }).click();
  await expect(admin.getByRole("table")).toBeVisible();
  // MUI's styles are emotion's <style> tags, carrying the page's nonce.
  const emotion = admin.locator("style[data-emotion]");
  expect(await emotion.count()).toBeGreaterThan(0);
  expect(await emotion.evaluateAll((styles) => styles.every((style) => (style as HTMLStyleElement).nonce !== ""))).toBe(
    true,
  );

  const path = uniquePath("csp");
  await admin.getByRole("link", { name: "Create" }).click();
  await admin.getByRole("textbox", { name: "Private name", exact: true }).fill("Policy check (internal)");
  await admin.getByRole("textbox", { name: "Public name", exact: true }).fill("Policy check");
  await admin.getByRole("textbox", { name: "Ticket office path", exact: true }).fill(path);
  await typeDateTime(admin, "Start", "09012030 0600PM");
  await typeDateTime(admin, "End", "09012030 1100PM");
  await admin.getByRole("button", { name: /^save$/i }).click();
  await expect(admin.getByRole("tab", { name: "Display" })).toHaveAttribute("aria-selected", "true");

  // Back to the list, and into the editor from there.
  await admin.goto("/admin/events");
  await admin.getByRole("cell", { name: "Policy check (internal)" }).click();
  await expect(admin.getByRole("tab", { name: "Display" })).toHaveAttribute("aria-selected", "true");
  await admin.getByRole("textbox", { name: "Public name", exact: true }).fill("Policy check, renamed");
  await admin.getByRole("button", { name: "Save", exact: true }).click();
  await expect(admin.getByText(/updated|saved/i).first()).toBeVisible();

  await admin.getByRole("tab", { name: "Configuration" }).click();
  await expect(admin.getByRole("list", { name: "Elements" })).toBeVisible();
  await admin.getByRole("tab", { name: "Graph" }).click();
  await expect(admin.locator(".react-flow__node").first()).toBeVisible();
});
