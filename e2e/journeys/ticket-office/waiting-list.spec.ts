// DONE-WHEN (issue 31), the waiting list, JavaScript off: buyer A, signed in by a trusted email, joins the list of a
// sold-out article (its one ticket held by buyer B); B's hold expires (the reservation is one minute, and the journey
// waits it out as the expired-hold journey does); A receives the offer mail, opens its link, clicks Buy now and pays.
// Then a second entry, C's, is offered a ticket added to the stock; C does not buy in time (the journey moves that
// offer's end into the past in the data folder's database, the one clock it cannot wait for: an offer lasts 15
// minutes at least), and the ticket goes on to D, whose offer mail arrives; D's offer page is read in French.

import { join } from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import Database from "better-sqlite3";
import { expect, test, uniquePath } from "../../fixtures.ts";
import { dataDir, publicURL } from "../../playwright.config.ts";
import {
  addArticle,
  asStaff,
  endHoldsOf,
  eventOnSale,
  expectAccessible,
  fillBillingInformation,
  guestOnBuyPage,
  newestMailTo,
  payOnDemoPage,
} from "./office.ts";

const CONCERT = "Evening concert";

/** An event on sale whose one concert ticket is soon held, a one-minute reservation, and a list taking names. */
async function soldOutSoon(request: APIRequestContext) {
  const path = uniquePath("list");
  const { event, organiser } = await eventOnSale(
    request,
    {
      name: `List ${path}`,
      frontend_title: "Winter Gala",
      frontend_path: path,
      start_date: "2030-12-12T18:00:00.000Z",
      end_date: "2030-12-12T23:00:00.000Z",
    },
    {
      articles: [{ title: CONCERT, price: 3000, stock: 1 }],
      settings: { reservation_minutes: 1, access_methods: ["anonymous", "trusted_email"] },
    },
  );
  await organiser.put(`/events/${event.id}/waiting-list`, {
    accepting: true,
    automatic: true,
    offer_minutes: 15,
    partial_offers: false,
  });
  const articles: { node_id: number; title: string; stock: { limit_id: number; maximum: number } }[] =
    await organiser.get(`/events/${event.id}/articles`);
  const concert = articles.find((article) => article.title === CONCERT);
  if (!concert) throw new Error("The concert was not created");
  return { base: `/tickets/${path}`, event, concert };
}

/** The newest mail to `to` once it holds `pattern`: its first match. */
async function mailedLink(to: string, pattern: RegExp): Promise<string> {
  let link = "";
  await expect
    .poll(
      () => {
        try {
          link = newestMailTo(to).match(pattern)?.[0] ?? "";
        } catch {
          link = "";
        }
        return link;
      },
      { timeout: 90_000, intervals: [1_000] },
    )
    .not.toBe("");
  return link;
}

const OFFER_LINK = /https?:\/\/\S+\/waiting-list\/offers\/\d+\?code=\w+/;

/**
 * From the page asking for a sign-in (the login page), a trusted email's link: asked, read in the mail, followed. The
 * mail's link names PUBLIC_URL (docs/decisions/0030): the buyer goes on there.
 */
async function signInByEmail(page: Page, email: string) {
  await page.getByRole("textbox", { name: "Email" }).fill(email);
  await page.getByRole("button", { name: "Send me a login link" }).click();
  await expect(page.getByRole("heading", { name: "Check your mailbox" })).toBeVisible();
  await page.goto(await mailedLink(email, /https?:\/\/\S+\/login\/verify\/\d+\/[\w-]+\?nextUrl=\S+/));
}

/** A buyer not signed in joins the list for the concert from its page: told to sign in by email, and back to join. */
async function joinFromListPage(page: Page, base: string, nodeId: number, email: string) {
  await page.goto(`${publicURL}${base}/waiting-list?article=${nodeId}`);
  await expect(page.getByText("To join the waiting list, sign in with your email address")).toBeVisible();
  await page.getByRole("link", { name: "Sign in with your email address" }).click();
  await signInByEmail(page, email);
  await expect(page).toHaveURL(`${publicURL}${base}/waiting-list?article=${nodeId}`);
  await page.getByRole("button", { name: "Join the waiting list" }).click();
  await expect(page).toHaveURL(`${publicURL}${base}/waiting-list`);
}

/** The entry's line on its buyer's page. */
const entryOf = (page: Page) => page.getByRole("listitem").filter({ hasText: CONCERT });

/**
 * Moves the end of `email`'s offer into the past, in the product's database: what the clock would do in 15
 * minutes. The sweep (every 30 seconds) then gives the offer back and hands it on.
 */
function lapseOfferOf(eventId: number, email: string) {
  const database = new Database(join(dataDir, "ticketing.sqlite"), { timeout: 10_000 });
  try {
    const moved = database
      .prepare(
        `update waiting_list_entries set offer_expires_at = ? where event_id = ? and email = ? and state = 'offered'`,
      )
      .run(new Date(Date.now() - 60_000).toISOString(), eventId, email);
    expect(moved.changes).toBe(1);
  } finally {
    database.close();
  }
}

test("JavaScript off: a buyer on the waiting list gets a ticket given back and buys it; a lapsed offer goes on", async ({
  openPage,
  request,
}) => {
  // Two sweeps of the offers, the hold and the offer ended in the database.
  test.setTimeout(300_000);
  const { base, event, concert } = await soldOutSoon(request);
  const stamp = Date.now();
  const emailA = `list-a-${stamp}@example.org`;

  // Buyer B, a guest, holds the one ticket.
  const buyerB = await openPage({ javaScriptEnabled: false });
  await guestOnBuyPage(buyerB, base);
  await addArticle(buyerB, CONCERT);

  // Buyer A signs in by email from the buy page: the concert is sold out, and its card leads to the list.
  const buyerA = await openPage({ javaScriptEnabled: false });
  await buyerA.goto(`${base}/buy`);
  await expect(buyerA).toHaveURL(/\/login\?nextUrl=/);
  await signInByEmail(buyerA, emailA);
  await expect(buyerA.getByRole("heading", { name: "Choose your tickets" })).toBeVisible();
  const card = buyerA.getByRole("article", { name: CONCERT });
  await expect(card).toContainText("Sold out");
  await expect(buyerA.getByText("Everything is sold out.")).toBeVisible();
  await card.getByRole("link", { name: /Join the waiting list/ }).click();
  await expect(buyerA.getByRole("heading", { level: 1, name: "Waiting list" })).toBeVisible();
  await expect(buyerA.getByRole("heading", { name: `Join the waiting list for “${CONCERT}”` })).toBeVisible();
  await buyerA.getByLabel("Number of tickets").selectOption("1");
  await buyerA.getByRole("button", { name: "Join the waiting list" }).click();
  await expect(entryOf(buyerA)).toContainText("You are number 1 in line.");
  await expect(entryOf(buyerA)).toContainText("waiting");

  // Once on the list, the article's page offers no second entry.
  await buyerA.goto(`${publicURL}${base}/waiting-list?article=${concert.node_id}`);
  await expect(buyerA.getByRole("button", { name: "Join the waiting list" })).toHaveCount(0);

  // B goes away past the reservation: the sweep gives the ticket back, and in the same write it is offered to A.
  endHoldsOf(event.id);
  const offerA = await mailedLink(emailA, OFFER_LINK);
  expect(offerA).toMatch(new RegExp(`^${publicURL}${base}/waiting-list/offers/`));
  // B cannot take it back: the ticket is A's for now.
  await buyerB.goto(`${base}/buy`);
  await expect(buyerB.getByRole("article", { name: CONCERT })).toContainText("Sold out");

  // A opens the mail's link: the offer is shown, nothing is done until A chooses (mail scanners follow links).
  await buyerA.goto(offerA);
  await expect(buyerA.getByRole("heading", { name: "Your tickets from the waiting list" })).toBeVisible();
  await expect(buyerA.getByRole("main")).toContainText(CONCERT);
  await expect(buyerA.getByText("Held for you until:")).toBeVisible();
  await buyerA.getByRole("button", { name: "Buy now" }).click();
  await fillBillingInformation(buyerA, emailA);
  await payOnDemoPage(buyerA, "30.00");
  await expect(buyerA.getByRole("main")).toContainText(CONCERT);
  await buyerA.goto(offerA);
  await expect(buyerA.getByRole("status")).toContainText("You bought these tickets.");

  // C and D join the list, in that order, by its page (not signed in: told to sign in by email first).
  const emailC = `list-c-${stamp}@example.org`;
  const emailD = `list-d-${stamp}@example.org`;
  const buyerC = await openPage({ javaScriptEnabled: false });
  await joinFromListPage(buyerC, base, concert.node_id, emailC);
  await expect(entryOf(buyerC)).toContainText("You are number 1 in line.");
  const buyerD = await openPage({ javaScriptEnabled: false });
  await joinFromListPage(buyerD, base, concert.node_id, emailD);
  await expect(entryOf(buyerD)).toContainText("You are number 2 in line.");

  // A ticket is added (by a moderator: a public event's catalogue is locked to its organiser): it is offered to C at
  // once, in the write that adds it.
  const moderator = await asStaff(request);
  await moderator.put(`/node-limits/${concert.stock.limit_id}`, { maximum: concert.stock.maximum + 1 });
  const offerC = await mailedLink(emailC, OFFER_LINK);
  await buyerC.reload();
  await expect(entryOf(buyerC)).toContainText("offered to you");

  // C lets the offer lapse: the ticket goes on to D, whose offer mail arrives.
  lapseOfferOf(event.id, emailC);
  const offerD = await mailedLink(emailD, OFFER_LINK);
  await buyerC.goto(offerC);
  await expect(buyerC.getByRole("status")).toContainText("This offer has lapsed");
  await expect(buyerC.getByRole("button", { name: "Buy now" })).toHaveCount(0);

  // D reads the offer in French.
  await buyerD.goto(offerD);
  await buyerD.getByRole("button", { name: "Français" }).click();
  await expect(buyerD.getByRole("heading", { level: 1, name: "Vos billets de la liste d'attente" })).toBeVisible();
  await expect(buyerD.getByText("Réservés pour vous jusqu'au :")).toBeVisible();
  await expect(buyerD.getByRole("button", { name: "Acheter maintenant" })).toBeVisible();
  await expect(buyerD.getByRole("button", { name: /Refuser/ })).toBeVisible();
});

test("JavaScript on: a guest asks the list page for a sign-in link, joins, and declines the offer, which goes on", async ({
  openPage,
  request,
}) => {
  const { base, concert } = await soldOutSoon(request);
  const stamp = Date.now();
  const emailG = `list-g-${stamp}@example.org`;
  const emailH = `list-h-${stamp}@example.org`;
  const holder = await openPage({ javaScriptEnabled: true });
  await guestOnBuyPage(holder, base);
  await addArticle(holder, CONCERT);

  // A guest: the buy page leads to the list, which asks for an email address (the login page would send a guest
  // straight back) and sends the link from there.
  const guest = await openPage({ javaScriptEnabled: true });
  await guestOnBuyPage(guest, base);
  await guest
    .getByRole("article", { name: CONCERT })
    .getByRole("link", { name: /Join the waiting list/ })
    .click();
  await expect(guest.getByText("To join the waiting list, sign in with your email address")).toBeVisible();
  await expectAccessible(guest, { javaScriptEnabled: true });
  await guest.getByRole("textbox", { name: "Email" }).fill(emailG);
  await guest.getByRole("button", { name: "Send me a login link" }).click();
  await expect(guest.getByRole("status")).toContainText("We sent you a link to sign in.");
  await guest.goto(await mailedLink(emailG, /https?:\/\/\S+\/login\/verify\/\d+\/[\w-]+\?nextUrl=\S+/));
  await expect(guest).toHaveURL(`${publicURL}${base}/waiting-list?article=${concert.node_id}`);
  await guest.getByLabel("Number of tickets").selectOption("1");
  await guest.getByRole("button", { name: "Join the waiting list" }).click();
  await expect(entryOf(guest)).toContainText("You are number 1 in line.");
  await expectAccessible(guest, { javaScriptEnabled: true });

  const next = await openPage({ javaScriptEnabled: true });
  await joinFromListPage(next, base, concert.node_id, emailH);

  // A ticket is added: offered to the guest, who declines it; it goes on to the next at once.
  await (await asStaff(request)).put(`/node-limits/${concert.stock.limit_id}`, { maximum: concert.stock.maximum + 1 });
  await guest.goto(await mailedLink(emailG, OFFER_LINK));
  await expect(guest.getByRole("heading", { name: "Your tickets from the waiting list" })).toBeVisible();
  await expectAccessible(guest, { javaScriptEnabled: true });
  await guest.getByRole("button", { name: /Decline/ }).click();
  await expect(guest.getByRole("status")).toContainText("You declined this offer");
  await expect(guest.getByRole("button", { name: "Buy now" })).toHaveCount(0);
  await next.goto(await mailedLink(emailH, OFFER_LINK));
  await expect(next.getByRole("button", { name: "Buy now" })).toBeVisible();

  // The same pages in French pass the same checks.
  await next.getByRole("button", { name: "Français" }).click();
  await expect(next.getByRole("button", { name: "Acheter maintenant" })).toBeVisible();
  await expectAccessible(next, { javaScriptEnabled: true });
  await next.goto(`${publicURL}${base}/waiting-list`);
  await expect(next.getByRole("heading", { level: 1, name: "Liste d'attente" })).toBeVisible();
  await expectAccessible(next, { javaScriptEnabled: true });
});
