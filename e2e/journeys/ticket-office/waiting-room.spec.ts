// DONE-WHEN (issue 30), the waiting room: with JavaScript off, a buyer who arrives before the opening waits on the
// room's page (which reloads itself by its Refresh header), is admitted at the opening, buys and gets the ticket; a
// second buyer who arrived later is admitted after the first (the organiser pauses the room meanwhile, then raises
// the rate and resumes it). Reloading is what the Refresh does, so the journey reloads instead of waiting on the
// clock. With JavaScript on, the same page has no serious accessibility violation and takes an admitted buyer on to
// the buy page.
import type { APIRequestContext, Page, Response } from "@playwright/test";
import { decodeTicketQr, downloaded, expect, test, uniquePath } from "../../fixtures.ts";
import { addArticle, eventOnSale, expectAccessible, fillBillingInformation, payOnDemoPage } from "./office.ts";

const PASS = "Festival pass";
const HOUR_MS = 60 * 60_000;

/** An event on sale behind a room that opens in an hour and admits one buyer a minute. */
async function eventBehindRoom(request: APIRequestContext) {
  const path = uniquePath("room");
  const { event, organiser } = await eventOnSale(
    request,
    {
      name: `Room ${path}`,
      frontend_title: "Autumn Festival",
      frontend_path: path,
      start_date: "2030-10-03T18:00:00.000Z",
      end_date: "2030-10-03T23:00:00.000Z",
    },
    { articles: [{ title: PASS, price: 4000, stock: 50 }] },
  );
  const opensAt = new Date(Date.now() + HOUR_MS).toISOString();
  await organiser.put(`/events/${event.id}/waiting-room`, {
    opens_at: opensAt,
    rate_per_minute: 1,
    admission_minutes: 10,
  });
  const act = (action: "open-now" | "pause" | "resume") =>
    organiser.post(`/events/${event.id}/waiting-room/${action}`, {});
  const room = {
    openNow: () => act("open-now"),
    pause: () => act("pause"),
    resume: () => act("resume"),
    /** A new rate; the opening (moved to now by open-now) stays as the room has it. */
    setRate: async (ratePerMinute: number) => {
      const { opens_at, admission_minutes } = await organiser.get(`/events/${event.id}/waiting-room`);
      await organiser.put(`/events/${event.id}/waiting-room`, {
        opens_at,
        rate_per_minute: ratePerMinute,
        admission_minutes,
      });
    },
  };
  return { base: `/tickets/${path}`, room };
}

/** From the buy page, a guest sign-in lands in the room (the login's next page is the buy page, which sends there). */
async function guestIntoRoom(page: Page, base: string) {
  await page.goto(`${base}/buy`);
  await expect(page).toHaveURL(/\/login\?nextUrl=/);
  await page.getByRole("button", { name: "Continue as guest" }).click();
  await expect(page).toHaveURL(`${base}/waiting-room`);
}

/** A fact the room's page states in its live region, by its label ("Your place in the queue:"): its value. */
const fact = (page: Page, label: string) =>
  page.getByRole("status").locator("p").filter({ hasText: label }).locator("strong");

/** Reloads as the page's Refresh header would, and answers the room page's answer. */
async function reloadAsRefreshDoes(page: Page): Promise<Response> {
  const response = await page.reload();
  if (!response) throw new Error("The reload got no answer");
  return response;
}

test("JavaScript off: an early buyer is admitted at the opening and buys; a later one is admitted after", async ({
  openPage,
  request,
}) => {
  const { base, room } = await eventBehindRoom(request);

  // Buyer A, an hour before the opening: no place number yet, the draw explained, the page reloading itself.
  const buyerA = await openPage({ javaScriptEnabled: false });
  await guestIntoRoom(buyerA, base);
  const waiting = await reloadAsRefreshDoes(buyerA);
  expect(waiting.headers().refresh).toBe("20");
  await expect(buyerA.getByRole("heading", { level: 1, name: "Waiting room" })).toBeVisible();
  await expect(fact(buyerA, "Your place in the queue:")).toHaveText("drawn at random at the opening");
  await expect(buyerA.getByText(/gets a random place in the queue at the opening/)).toBeVisible();

  // The same page in French (the footer's language switch comes back to it).
  await buyerA.getByRole("button", { name: "Français" }).click();
  await expect(buyerA.getByRole("heading", { level: 1, name: "Salle d'attente" })).toBeVisible();
  await expect(fact(buyerA, "Votre place dans la file :")).toHaveText("tirée au sort à l'ouverture");
  await expect(buyerA.getByText(/reçoivent une place tirée au sort dans la file à l'ouverture/)).toBeVisible();
  await buyerA.getByRole("button", { name: "English" }).click();
  await expect(buyerA.getByRole("heading", { level: 1, name: "Waiting room" })).toBeVisible();

  // The organiser opens the sale now: A, alone before the opening, is first and admitted at once.
  await room.openNow();

  // Buyer B arrives after the opening: second in the queue, behind A, and waits (one a minute: their turn is a
  // minute away).
  const buyerB = await openPage({ javaScriptEnabled: false });
  await guestIntoRoom(buyerB, base);
  await expect(fact(buyerB, "Your place in the queue:")).toHaveText("2");
  await expect(fact(buyerB, "Estimated wait:")).toHaveText(/^(less than a minute|about 1 minute)$/);
  expect((await reloadAsRefreshDoes(buyerB)).headers().refresh).toBe("20");

  // The organiser pauses the room: nobody more is admitted (so the journey does not race the clock), and B is told.
  await room.pause();
  await reloadAsRefreshDoes(buyerB);
  await expect(buyerB.getByRole("status")).toContainText("The sale is paused for now");
  await expect(fact(buyerB, "Your place in the queue:")).toHaveText("2");

  // A's page reloads: admitted at the opening, A stays admitted, on to the buy page, which says until when.
  await reloadAsRefreshDoes(buyerA);
  await expect(buyerA).toHaveURL(`${base}/buy`);
  await expect(buyerA.getByRole("status").filter({ hasText: "It is your turn" })).toBeVisible();
  await addArticle(buyerA, PASS);
  await buyerA.getByRole("complementary", { name: "Your basket" }).getByRole("link", { name: "Checkout" }).click();
  await fillBillingInformation(buyerA, `early-${Date.now()}@example.org`);
  await payOnDemoPage(buyerA, "40.00");
  await expect(buyerA.getByRole("main")).toContainText(PASS);
  const downloading = buyerA.waitForEvent("download");
  await buyerA
    .getByRole("link", { name: /Download ticket/ })
    .first()
    .click();
  const code = decodeTicketQr(await downloaded(await downloading));
  const verdict = await (await request.get(`/api/v1/tickets/verify?code=${encodeURIComponent(code)}`)).json();
  expect(verdict.valid).toBe(true);

  // B is still in the room; the organiser raises the rate and resumes, and B's next reload is their turn.
  await reloadAsRefreshDoes(buyerB);
  await expect(buyerB).toHaveURL(`${base}/waiting-room`);
  await room.setRate(1000);
  await room.resume();
  // The next place comes in one interval of the new rate after the resume (60 ms): reloads, as the Refresh would.
  await expect(async () => {
    await reloadAsRefreshDoes(buyerB);
    expect(buyerB.url()).toBe(new URL(`${base}/buy`, buyerB.url()).href);
  }).toPass({ intervals: [100, 250, 500] });
  await expect(buyerB.getByRole("heading", { name: "Choose your tickets" })).toBeVisible();
});

test("JavaScript on: the waiting page takes an admitted buyer on to the buy page", async ({ openPage, request }) => {
  const { base, room } = await eventBehindRoom(request);
  const buyer = await openPage({ javaScriptEnabled: true });
  await guestIntoRoom(buyer, base);
  await expect(buyer.getByRole("status")).toContainText("drawn at random at the opening");
  await expectAccessible(buyer, { javaScriptEnabled: true });
  await room.openNow();
  // "Check now" is what the page's own reload does; Turbo loads the room as a whole page, and the redirect follows.
  await buyer.getByRole("link", { name: "Check now" }).click();
  await expect(buyer).toHaveURL(`${base}/buy`);
  await expect(buyer.getByRole("heading", { name: "Choose your tickets" })).toBeVisible();
});
