// DONE-WHEN (issue 12), JavaScript off and on: a buyer pays by Stripe Checkout (the local stand-in's hosted page),
// the signed webhook confirms, the tickets and the invoice PDF download; staff refund one of two articles from the
// basket detail, the stock goes back, that ticket is refused at verify, the buyer gets the refund email; a second,
// full refund sets the basket `refunded`.
import { execFileSync } from "node:child_process";
import Stripe from "stripe";
import { decodeTicketQr, downloaded, expect, ORGANISER, pdfFile, test, uniquePath } from "../fixtures.ts";
import { baseURL, stripePort } from "../playwright.config.ts";
import {
  addArticle,
  asStaff,
  eventOnSale,
  fillBillingInformation,
  guestOnBuyPage,
  newestMailTo,
  remainingStock,
  signInToBackOffice,
} from "./ticket-office/office.ts";

const CONCERT = "Orchestra seat";
const WORKSHOP = "Conductor's workshop";

/** The PDF's text, read with pdftotext (poppler-utils, beside pdftoppm). */
function pdfText(pdf: Buffer): string {
  return execFileSync("pdftotext", ["-layout", pdfFile(pdf), "-"]).toString();
}

for (const javaScriptEnabled of [false, true]) {
  test(`a buyer pays through Stripe Checkout, staff refund one article then the rest (JavaScript ${
    javaScriptEnabled ? "on" : "off"
  })`, async ({ openPage, request }) => {
    const path = uniquePath(javaScriptEnabled ? "symphony-js" : "symphony");
    const organiser = await asStaff(request, ORGANISER);

    // A unit of its own, whose owner connects its Stripe account: the dashboard's webhook endpoint (made here
    // through Stripe's API, at the stand-in) gives the signing secret the owner pastes into the back office.
    const unit = await organiser.post("/units", {
      name: `Philharmonie ${path}`,
      address: "Rue de Genève 12, 1003 Lausanne",
    });
    const secretKey = `sk_test_${path.replace(/[^a-z0-9]/gi, "")}`;
    const stripe = new Stripe(secretKey, { host: "127.0.0.1", port: stripePort, protocol: "http" });
    const endpoint = await stripe.webhookEndpoints.create({
      url: `${baseURL}/api/v1/payments/stripe/webhook/${unit.id}`,
      enabled_events: ["checkout.session.completed", "checkout.session.expired"],
    });

    const admin = await openPage();
    await signInToBackOffice(admin);
    await admin.goto(`/admin/units/${unit.id}`);
    await expect(admin.getByText("No Stripe account is set")).toBeVisible();
    await admin.getByRole("textbox", { name: "Secret key", exact: true }).fill(secretKey);
    await admin.getByRole("textbox", { name: "Webhook signing secret", exact: true }).fill(endpoint.secret ?? "");
    await admin.getByRole("button", { name: "Save the Stripe account" }).click();
    await expect(admin.getByText("The unit's Stripe account is set")).toBeVisible();

    const { event } = await eventOnSale(
      request,
      {
        unit_id: unit.id,
        name: `Symphony ${path}`,
        frontend_title: "Symphony Night",
        frontend_path: path,
        start_date: "2030-06-01T18:00:00.000Z",
        end_date: "2030-06-01T22:00:00.000Z",
      },
      {
        articles: [
          { title: CONCERT, price: 4500, stock: 10 },
          { title: WORKSHOP, price: 2000, stock: 10 },
        ],
        settings: { online_payment_module: "stripe" },
      },
    );

    // The buyer.
    const buyer = await openPage({ javaScriptEnabled, acceptDownloads: true });
    const email = `${path}@example.org`;
    await guestOnBuyPage(buyer, `/tickets/${path}`);
    await addArticle(buyer, CONCERT);
    await addArticle(buyer, WORKSHOP);
    expect(await remainingStock(request, CONCERT, event.id)).toBe(9);
    await buyer.getByRole("link", { name: "Checkout" }).click();
    await fillBillingInformation(buyer, email);
    await buyer.getByRole("checkbox", { name: "I accept the terms of service" }).check();
    await buyer.getByRole("button", { name: "Pay now" }).click();

    // Stripe Checkout's hosted page (the stand-in's): card data never touches the ticket office.
    await expect(buyer).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${stripePort}/c/pay/cs_`));
    await buyer.getByRole("button", { name: /^Pay CHF 65\.00$/ }).click();
    // The signed webhook reached the product before Stripe sent the buyer back: the order is confirmed.
    await expect(buyer.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();

    const tickets = buyer.getByRole("link", { name: /^Download ticket/ });
    await expect(tickets).toHaveCount(2);
    const codes: Record<string, string> = {};
    for (const [index, title] of [CONCERT, WORKSHOP].entries()) {
      const downloading = buyer.waitForEvent("download");
      await tickets.nth(index).click();
      codes[title] = decodeTicketQr(await downloaded(await downloading));
    }
    const verify = async (title: string) =>
      (await (await request.get(`/api/v1/tickets/verify?code=${encodeURIComponent(codes[title] ?? "")}`)).json())
        .valid as boolean;
    expect(await verify(CONCERT)).toBe(true);
    expect(await verify(WORKSHOP)).toBe(true);

    const invoiceDownload = buyer.waitForEvent("download");
    await buyer.getByRole("link", { name: "Download the invoice (PDF)" }).click();
    const invoice = pdfText(await downloaded(await invoiceDownload));
    expect(invoice).toContain("Philharmonie");
    expect(invoice).toContain("1003 Lausanne");
    expect(invoice).toContain(CONCERT);
    expect(invoice).toContain(WORKSHOP);
    expect(invoice).toMatch(/CHF\s*65\.00/);

    // Staff refund the orchestra seat from the basket's page: its stock goes back, its ticket no longer admits.
    await admin.goto(`/admin/events/${event.id}/baskets`);
    await admin.getByText(email).click();
    await expect(admin.getByRole("heading", { name: /^Basket / })).toBeVisible();
    await admin.getByRole("button", { name: "Refund" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByRole("radio", { name: /Chosen articles/ }).check();
    await dialog.getByRole("checkbox", { name: new RegExp(`^${CONCERT}`) }).check();
    await dialog.getByRole("textbox", { name: "Reason" }).fill("Cannot attend the concert");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await dialog.getByRole("button", { name: /^Refund CHF\s*45\.00$/ }).click();
    // Each refund is waited for by what only it shows: its toast (the first one gone before the second refund)
    // and the basket's refunded amount.
    const toasts = admin.getByRole("region", { name: "Notifications" });
    const succeeded = toasts.getByRole("alert").filter({ hasText: "Refund succeeded" });
    await expect(succeeded).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(admin.getByText(/^Refunded: CHF\s*45\.00$/)).toBeVisible();

    expect(await remainingStock(request, CONCERT, event.id)).toBe(10);
    expect(await remainingStock(request, WORKSHOP, event.id)).toBe(9);
    expect(await verify(CONCERT)).toBe(false);
    expect(await verify(WORKSHOP)).toBe(true);
    await expect.poll(() => newestMailTo(email)).toContain("Subject: Your refund for Symphony Night");
    expect(newestMailTo(email)).toContain("Part of your order");

    // The rest, the whole basket: it is refunded. The first refund's toast closes itself after 5 s first
    // (closing it by hand would race that).
    await expect(succeeded).toHaveCount(0, { timeout: 15_000 });
    await admin.getByRole("button", { name: "Refund" }).click();
    await dialog.getByRole("radio", { name: /The whole basket/ }).check();
    await dialog.getByRole("textbox", { name: "Reason" }).fill("Event postponed");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await dialog.getByRole("button", { name: /^Refund CHF\s*20\.00$/ }).click();
    await expect(succeeded).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(admin.getByText(/^Refunded: CHF\s*65\.00$/)).toBeVisible();
    await expect(admin.getByText("Refunded", { exact: true }).first()).toBeVisible();
    expect(await remainingStock(request, WORKSHOP, event.id)).toBe(10);
    expect(await verify(WORKSHOP)).toBe(false);
    const basket = (await organiser.get(`/baskets?event_id=${event.id}`))[0];
    expect(basket.status).toBe("refunded");

    // The event's invoices: the invoice and its two credit notes; the second opens on its page.
    await admin.goto(`/admin/events/${event.id}/invoices`);
    await expect(admin.getByText(/\(credit note\)/)).toHaveCount(2);
    await admin.getByText(/20\.00 \(credit note\)/).click();
    await expect(admin.getByRole("main").getByRole("heading", { name: /^Credit note \d+$/ })).toBeVisible();
    await expect(admin.getByText("Event postponed")).toBeVisible();
    await expect(admin.getByRole("link", { name: /^Invoice \d+$/ })).toBeVisible();
  });
}
