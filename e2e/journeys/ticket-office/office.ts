// What the ticket-office journeys share: staff calls to the API, the buyer's usual steps, the mails of the
// e2e data folder and an accessibility check.
import { createHmac } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type APIRequestContext, expect, type Locator, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { axeFor, oneAxeRunAtATime } from "../../accessibility.ts";
import { downloaded, MODERATOR, ORGANISER, reachConfirmation } from "../../fixtures.ts";
import { dataDir } from "../../playwright.config.ts";

export const DEMO_EVENT_ID = 1;

// Logins are rate-limited per account and per IP (every journey shares 127.0.0.1): one token per person and
// worker, renewed well before its 15 minutes are over.
const staffTokens = new Map<string, { token: Promise<string>; at: number }>();
const TOKEN_REUSE_MS = 10 * 60_000;

async function staffToken(request: APIRequestContext, who: { email: string; password: string }) {
  const cached = staffTokens.get(who.email);
  if (cached && Date.now() - cached.at < TOKEN_REUSE_MS) return cached.token;
  const token = request.post("/api/v1/auth/login", { data: who }).then(async (login) => {
    expect(login.status(), await login.text()).toBe(200);
    return (await login.json()).access_token as string;
  });
  staffTokens.set(who.email, { token, at: Date.now() });
  return token;
}

/** Calls the API as back-office staff; the moderator is a superuser (only superusers edit a public event). */
export async function asStaff(request: APIRequestContext, who: { email: string; password: string } = MODERATOR) {
  const headers = { authorization: `Bearer ${await staffToken(request, who)}` };
  const call = async (method: "get" | "post" | "put", path: string, data?: object) => {
    const response = await request[method](`/api/v1${path}`, { headers, data });
    expect(response.ok(), `${method.toUpperCase()} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
    return response.json();
  };
  return {
    get: (path: string) => call("get", path),
    post: (path: string, data: object) => call("post", path, data),
    put: (path: string, data: object) => call("put", path, data),
  };
}

/** Submits the event for moderation as the organiser and approves it as the moderator, through the API. */
export async function approveThroughApi(request: APIRequestContext, eventId: number) {
  await (await asStaff(request, ORGANISER)).post(`/events/${eventId}/moderation/request`, {});
  await (await asStaff(request)).post(`/events/${eventId}/moderation/approve`, {});
}

/** Puts the event on sale: approved through the API (approveThroughApi), then made public by the organiser. */
export async function putOnSaleThroughApi(request: APIRequestContext, eventId: number) {
  await approveThroughApi(request, eventId);
  await (await asStaff(request, ORGANISER)).put(`/events/${eventId}`, { status: "public" });
}

/**
 * A new (draft) event through the API, as `organiser` (from asStaff): `fields` are its wire fields, in the
 * organiser's first unit unless they name another.
 */
export async function createEventThroughApi(
  organiser: Awaited<ReturnType<typeof asStaff>>,
  fields: { unit_id?: number; name: string; frontend_title: string; frontend_path: string; [field: string]: unknown },
) {
  const unitId = fields.unit_id ?? (await organiser.get("/units"))[0].id;
  return organiser.post("/events", { ...fields, unit_id: unitId });
}

type EventFields = Parameters<typeof createEventThroughApi>[1];
type Article = { title: string; price: number; stock: number };
/** An article as the API created it: what the setup needs of it. */
type CreatedArticle = { id: number; configuration: { id: number } };

/**
 * A new event on sale, set up through the API as the organiser: created as a draft with `fields`
 * (createEventThroughApi), given `articles` in order, then `settings` (the event's wire fields to change) and
 * `prepare` (forms, points of sale…), and at last put on sale (putOnSaleThroughApi). Returns the event, its articles
 * as the API created them (in the same order) and the organiser's API.
 */
export async function eventOnSale<const Articles extends readonly Article[] = []>(
  request: APIRequestContext,
  fields: EventFields,
  options: {
    articles?: Articles;
    settings?: Record<string, unknown>;
    prepare?: (setUp: {
      event: { id: number };
      articles: { [Index in keyof Articles]: CreatedArticle };
      organiser: Awaited<ReturnType<typeof asStaff>>;
    }) => Promise<unknown>;
  } = {},
) {
  const organiser = await asStaff(request, ORGANISER);
  const event = await createEventThroughApi(organiser, fields);
  const created: CreatedArticle[] = [];
  for (const article of options.articles ?? [])
    created.push(await organiser.post(`/events/${event.id}/articles`, article));
  const articles = created as { [Index in keyof Articles]: CreatedArticle };
  if (options.settings) await organiser.put(`/events/${event.id}`, options.settings);
  await options.prepare?.({ event, articles, organiser });
  await putOnSaleThroughApi(request, event.id);
  return { event, articles, organiser };
}

/**
 * Signs in to the back office (a react-admin SPA: JavaScript on) as `who`, the organiser unless said, in English or
 * in French.
 */
export async function signInToBackOffice(page: Page, who: { email: string; password: string } = ORGANISER) {
  await page.goto("/admin");
  await page.getByLabel(/^E-?mail/).fill(who.email);
  await page.getByLabel(/^(Password|Mot de passe)/).fill(who.password);
  await page.getByRole("button", { name: /sign in|log in|connexion/i }).click();
  await expect(page.getByRole("table")).toBeVisible();
}

/** Saves a back-office form (react-admin's Save) and waits until it is saved: the form is pristine again. */
/**
 * Saves a back-office form and waits for the API to have answered the write: the Save button is disabled while the
 * request is in flight too, so its state alone does not say the record is stored.
 */
export async function saveBackOfficeForm(page: Page) {
  const written = page.waitForResponse(
    (response) => response.url().includes("/api/v1/") && response.request().method() !== "GET",
  );
  await page.getByRole("button", { name: /^save$/i }).click();
  expect((await written).ok()).toBe(true);
  await expect(page.getByRole("button", { name: /^save$/i })).toBeDisabled();
}

/** The dialog opened by the last click, once it is on screen. */
export async function dialog(page: Page): Promise<Locator> {
  const opened = page.getByRole("dialog");
  await expect(opened).toBeVisible();
  return opened;
}

/** The tree editor's "Add to <parent>" → kind → title; the new element is then selected in the side panel. */
export async function addElement(page: Page, parent: string, kind: string, title: string) {
  await page.getByRole("button", { name: `Add to ${parent}`, exact: true }).click();
  await page.getByRole("menuitem", { name: kind, exact: true }).click();
  const opened = await dialog(page);
  await opened.getByRole("textbox", { name: "Element title", exact: true }).fill(title);
  await opened.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("heading", { name: `Element: ${title}` })).toBeVisible();
}

/** The real (not testing) stock left of an article of an event (the demo one unless said), from the buyer's tree. */
export async function remainingStock(
  request: APIRequestContext,
  title: string,
  eventId = DEMO_EVENT_ID,
): Promise<number> {
  const tree = await (await request.get(`/api/v1/frontend/events/${eventId}/tree`)).json();
  const find = (node: { title: string; stock?: { remaining: number }; children: unknown[] }): number | undefined =>
    node.title === title
      ? node.stock?.remaining
      : node.children.map((child) => find(child as typeof node)).find(Number.isFinite);
  const remaining = find(tree.root);
  if (remaining === undefined) throw new Error(`No stock for ${title}`);
  return remaining;
}

export async function guestOnBuyPage(page: Page, base = "/tickets/demo") {
  await page.goto(`${base}/buy`);
  await expect(page).toHaveURL(/\/login\?nextUrl=/);
  await page.getByRole("button", { name: "Continue as guest" }).click();
  await expect(page.getByRole("heading", { name: "Choose your tickets" })).toBeVisible();
}

export async function addArticle(page: Page, title: string, options: string[] = []) {
  const article = page.getByRole("article", { name: title });
  for (const option of options) await article.getByRole("checkbox", { name: new RegExp(option) }).check();
  await article.getByRole("button", { name: "Add to basket" }).click();
  await expect(page.getByRole("complementary", { name: "Your basket" })).toContainText(title);
}

export async function fillBillingInformation(page: Page, email = "grace@example.org") {
  await expect(page.getByRole("heading", { name: "Billing information" })).toBeVisible();
  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Address").fill("12 Avenue de la Gare");
  await page.getByLabel("Postal code").fill("1003");
  await page.getByLabel("City").fill("Lausanne");
  await page.getByLabel("Country").fill("Switzerland");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Payment method" })).toBeVisible();
}

/** The billing step in French, filled in as Marie Curie at `email`; continues to the payment method. */
export async function fillFrenchBillingInformation(page: Page, email = "marie@example.org") {
  await page.getByLabel("Prénom").fill("Marie");
  await page.getByLabel("Nom", { exact: true }).fill("Curie");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Adresse").fill("1 rue Pierre et Marie Curie");
  await page.getByLabel("Code postal").fill("75005");
  await page.getByLabel("Localité").fill("Paris");
  await page.getByLabel("Pays").fill("France");
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByRole("heading", { name: "Mode de paiement" })).toBeVisible();
}

/**
 * On the payment step: accepts the terms, pays `amount` (as the demo provider's button shows it, "40.00") and
 * reaches the confirmation.
 */
export async function payOnDemoPage(page: Page, amount: string) {
  await page.getByRole("checkbox", { name: "I accept the terms of service" }).check();
  await page.getByRole("button", { name: "Pay now" }).click();
  await page.getByRole("button", { name: new RegExp(`^Pay CHF\\s*${amount.replace(".", "\\.")}$`) }).click();
  await reachConfirmation(page);
}

/**
 * Asserts the page has no serious or critical accessibility violation (axe-core, WCAG 2 A/AA). axe runs as a
 * script in the page, so only with JavaScript on; the server sends the same HTML either way. It first waits for
 * Turbo Drive's visit to end: during one, Turbo marks `<html aria-busy="true">`, which axe reports
 * (aria-allowed-attr), and the page under it may still be the previous one.
 */
export async function expectAccessible(page: Page, { javaScriptEnabled }: { javaScriptEnabled: boolean }) {
  if (!javaScriptEnabled) return;
  await expect(page.locator("html")).not.toHaveAttribute("aria-busy");
  const results = await oneAxeRunAtATime(page, () =>
    axeFor(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze(),
  );
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
  expect(serious, `accessibility violations on ${page.url()}`).toEqual([]);
}

/** The text of the newest mail sent to `to` in the e2e data folder, quoted-printable decoded. */
export function newestMailTo(to: string): string {
  const folder = join(dataDir, "mail");
  const files = readdirSync(folder)
    .filter((name) => name.endsWith(".eml"))
    .map((name) => join(folder, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const file of files) {
    const raw = readFileSync(file, "utf8");
    if (!new RegExp(`^To: ${to}$`, "mi").test(raw)) continue;
    return raw
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
  throw new Error(`No mail to ${to}`);
}

/** A third-party login token: a JWT signed HS256 with the event's third-party key (docs/design.md §4). */
export function thirdPartyToken(secretKey: string, claims: { email: string; exp?: number }) {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const body = `${encode({ alg: "HS256", typ: "JWT" })}.${encode({ exp: Math.floor(Date.now() / 1000) + 600, ...claims })}`;
  return `${body}.${createHmac("sha256", secretKey).update(body).digest("base64url")}`;
}

/** Adds an article to the demo event once (journeys run JS off and on against the same server). */
export async function ensureDemoArticle(
  request: APIRequestContext,
  article: { title: string; price: number; stock: number },
) {
  const moderator = await asStaff(request);
  const articles: { title: string }[] = await moderator.get(`/events/${DEMO_EVENT_ID}/articles`);
  if (!articles.some((existing) => existing.title === article.title))
    await moderator.post(`/events/${DEMO_EVENT_ID}/articles`, article);
}

/**
 * Ends every hold on the event's baskets now, in the product's database: what the clock would do once their
 * reservation is over, without the journey waiting it out. The ticket office then finds them expired at the buyer's
 * return, and the sweep (every 30 seconds) gives their stock back.
 */
export function endHoldsOf(eventId: number) {
  const database = new Database(join(dataDir, "ticketing.sqlite"), { timeout: 10_000 });
  try {
    const moved = database
      .prepare(
        `update baskets set expires_at = ? where event_id = ? and exists (
          select 1 from selected_nodes l where l.basket_id = baskets.id and l.status = 'held')`,
      )
      .run(new Date(Date.now() - 60_000).toISOString(), eventId);
    expect(moved.changes).toBeGreaterThan(0);
  } finally {
    database.close();
  }
}

/**
 * A guest buys `count` of the article `title` on the event at `path` (paying `total`, as the demo page shows it)
 * and downloads each ticket: the PDFs, in the order the confirmation lists them.
 */
export async function buyTicketPdfs(buyer: Page, path: string, title: string, count: number, total: string) {
  await guestOnBuyPage(buyer, `/tickets/${path}`);
  const basket = buyer.getByRole("complementary", { name: "Your basket" });
  await addArticle(buyer, title);
  // Each add waits for the basket to show it: a second click while the first is on its way would replace it.
  for (let added = 2; added <= count; added++) {
    await addArticle(buyer, title);
    await expect(basket).toContainText(`${added} × ${title}`);
  }
  await basket.getByRole("link", { name: "Checkout" }).click();
  await fillBillingInformation(buyer, `${path}@example.org`);
  await payOnDemoPage(buyer, total);
  const links = buyer.getByRole("link", { name: /^Download ticket/ });
  await expect(links).toHaveCount(count);
  const pdfs: Buffer[] = [];
  for (let index = 0; index < count; index++) {
    const downloading = buyer.waitForEvent("download");
    await links.nth(index).click();
    pdfs.push(await downloaded(await downloading));
  }
  return pdfs;
}
