// Issue 9 (SPEC 2.2): every auth page of the back office is reachable signed out and renders once: no page
// keeps navigating after it loaded (the signed-out /admin used to reload its sign-in page hundreds of times a
// second). A signed-in user is sent away from login and register once, to the events list.
import type { Page } from "@playwright/test";
import { expect, ORGANISER, test } from "../fixtures.ts";

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
    // SPEC 9: the back office keeps its tokens in local storage under "authToken".
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
