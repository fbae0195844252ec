// Issue 9 (docs/specification.md §2.2): every auth page of the back office is reachable signed out and renders once: no
// page keeps navigating after it loaded (the signed-out /admin used to reload its sign-in page hundreds of times a
// second). A signed-in user is sent away from login and register once, to the events list.
import type { Page } from "@playwright/test";
import { expect, ORGANISER, test } from "../fixtures.ts";
import { signInToBackOffice } from "./ticket-office/office.ts";

/** How long a page is watched after its load event: a redirect loop makes hundreds of navigations in it. */
const WATCH_MS = 3_000;

interface Watched {
  /** Main-frame navigations (full or same-document) within WATCH_MS of the load event. */
  afterLoad: number;
  /** The paths the page went through from the start, each change once. */
  paths: string[];
  /** Whether the page's heading came on screen (within the expect timeout). */
  isHeadingShown: boolean;
}

/** Opens `path`, waits for `heading` to come on screen, and reports how the page navigated meanwhile. */
async function watch(page: Page, path: string, heading: string): Promise<Watched> {
  let navigations = 0;
  const paths: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame !== page.mainFrame()) return;
    navigations += 1;
    const current = new URL(frame.url()).pathname;
    if (paths.at(-1) !== current) paths.push(current);
  });
  await page.goto(path, { waitUntil: "load" });
  const atLoad = navigations;
  // A window of time is what is measured here, so this one wait is on the clock.
  const [isHeadingShown] = await Promise.all([
    expect(page.getByRole("heading", { name: heading }))
      .toBeVisible()
      .then(
        () => true,
        () => false,
      ),
    page.waitForTimeout(WATCH_MS),
  ]);
  return { afterLoad: navigations - atLoad, paths, isHeadingShown };
}

const SIGNED_OUT_PAGES = [
  // The back office's home redirects to the sign-in page: that one navigation is allowed.
  { path: "/admin", heading: "Sign in" },
  { path: "/admin/events", heading: "Sign in" },
  { path: "/admin/auth/login", heading: "Sign in" },
  { path: "/admin/auth/register", heading: "Create an account" },
  // A made-up link: the page says the verification failed (and counts down 5 s before going to sign in).
  { path: "/admin/auth/register/verify/OTk5OQ/not-a-hash", heading: "Email verification" },
  { path: "/admin/auth/password-reset-request", heading: "Forgot your password?" },
  { path: "/admin/auth/password-reset-request/OTk5OQ/bm90LWEtdG9rZW4", heading: "Choose a new password" },
];

test("each auth page opened signed out settles at once", async ({ openPage }) => {
  // One page after the other, each in a browser of its own: seven back offices loading at once on two cores
  // slowed the journeys running beside this one past their timeouts.
  const counts = [];
  for (const { path, heading } of SIGNED_OUT_PAGES)
    counts.push({ path, ...(await watch(await openPage(), path, heading)) });
  for (const { path, afterLoad } of counts) expect(afterLoad, path).toBeLessThanOrEqual(1);
  for (const { path, isHeadingShown } of counts) expect(isHeadingShown, path).toBe(true);
});

test("a signed-in user opening login or register is sent to the events list once", async ({ openPage, request }) => {
  const tokens = await (await request.post("/api/v1/auth/login", { data: ORGANISER })).json();
  const counts = [];
  for (const path of ["/admin/auth/login", "/admin/auth/register"]) {
    const page = await openPage();
    // docs/specification.md §9: the back office keeps its tokens in local storage under "authToken".
    await page.addInitScript(
      (stored) => {
        if (!window.localStorage.getItem("authToken")) window.localStorage.setItem("authToken", stored);
      },
      JSON.stringify({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token }),
    );
    counts.push({ path, ...(await watch(page, path, "Events")) });
  }
  // The redirect may come before or after the load event: what counts is the one hop, straight to the list.
  for (const { path, paths } of counts) expect(paths, path).toEqual([path, "/admin/events"]);
  for (const { path, isHeadingShown } of counts) expect(isHeadingShown, path).toBe(true);
});

// Issue 28, finding 12 (docs/decisions/0033): a browser that signed in holds a device cookie for the account, which
// its later sign-ins present, so that others' wrong passwords from its address cannot lock it out. (The lock-out
// itself is the API's tests': this server multiplies every allowance by 100.)
test("a sign-in gives the browser a device cookie for the sign-ins only; the preview's sign-in renews it through the ticket office", async ({
  openPage,
}) => {
  const page = await openPage();
  const deviceCookies = async () =>
    (await page.context().cookies()).filter((cookie) => cookie.name.startsWith("device_"));
  await signInToBackOffice(page);
  const given = await deviceCookies();
  expect(given.map((cookie) => cookie.path).sort()).toEqual(["/api/v1/auth/login", "/tickets/preview"]);
  for (const cookie of given) expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", secure: false });
  // The page's scripts cannot read it.
  expect(await page.evaluate(() => document.cookie)).not.toContain("device_");

  // The preview's staff sign-in is a form of the ticket office, which signs in through the API in-process: the
  // API's new device cookie comes back to the browser through it.
  await page.goto("/tickets/preview/demo/login");
  await page.getByLabel("Email").fill(ORGANISER.email);
  await page.getByLabel("Password").fill(ORGANISER.password);
  await page.getByRole("button", { name: "Sign in to preview" }).click();
  // Signed in, the preview goes on to its buy page.
  await expect(page).toHaveURL(/\/tickets\/preview\/demo\/buy$/);
  const renewed = await deviceCookies();
  const previews = (cookies: typeof given) => cookies.find((cookie) => cookie.path === "/tickets/preview");
  expect(renewed).toHaveLength(2);
  expect(previews(renewed)?.value).toMatch(/^d1\./);
  expect(previews(renewed)?.value).not.toBe(previews(given)?.value);
});
