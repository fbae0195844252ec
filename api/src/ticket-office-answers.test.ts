// The ticket office as the product serves it (issue 28): a post that is not a form, a closed event's buy page and
// someone else's payment-return page each get an answer that says what happened, in English and French.
import { eq, run, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "./product.ts";
import { createOnSaleEvent, FRENCH } from "./test-support.ts";
import { BILLING_FORM, headingOf, startPayment, startProduct, textOf, Visitor } from "./test-visitor.ts";

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(async () => product.stop());

/** A public event of its own with one article, "Entry"; its ticket office's path. */
async function eventOnSale() {
  const sale = await createOnSaleEvent(product, { stock: 100 });
  return { ...sale, office: `/tickets/${sale.event.frontendPath}` };
}

async function closeRegistrations(eventId: number) {
  await product.database.transaction(function* (tx) {
    yield* run(
      tx
        .update(schema.events)
        .set({ registrationsEndDate: "2020-01-01T00:00:00.000Z" })
        .where(eq(schema.events.id, eventId))
        .run(),
    );
  });
}

describe("a post to a ticket-office form that is not a form (finding 3)", () => {
  const post = (visitor: Visitor, path: string, contentType: string | null, body: string) =>
    visitor.request(path, { method: "POST", headers: contentType ? { "content-type": contentType } : {}, body });

  it.each([
    ["text/plain", "x"],
    ["application/json", '{"lng":"fr"}'],
    [null, "lng=fr"],
    ["application/xml", "<lng>fr</lng>"],
  ])("answers 415 with a page that says so, for %s, on the language switch and the login", async (type, body) => {
    for (const path of ["/language", "/tickets/demo/login", "/tickets/preview/demo/login"]) {
      const answer = await post(new Visitor(product.app), path, type, body);
      expect(answer.status, path).toBe(415);
      expect(answer.headers.get("content-type")).toContain("text/html");
      const html = await answer.text();
      expect(headingOf(html)).toBe("This form could not be read");
      expect(textOf(html)).toContain("Go back, reload the page and send the form again.");
    }
  });

  it("answers 400 to a multipart body that cannot be read (no boundary, cut short), in the visitor's language", async () => {
    for (const type of ["multipart/form-data", "multipart/form-data; boundary=x"]) {
      const answer = await post(new Visitor(product.app, FRENCH), "/language", type, "--x\r\nbroken");
      expect(answer.status).toBe(400);
      const html = await answer.text();
      expect(headingOf(html)).toBe("Ce formulaire n'a pas pu être lu");
      expect(textOf(html)).toContain("Revenez en arrière, rechargez la page et renvoyez le formulaire.");
    }
  });

  it("answers 415 to the buy, checkout and payment steps of a buyer with a basket", async () => {
    const sale = await eventOnSale();
    const buyer = new Visitor(product.app);
    await buyer.signInAsGuest(sale.office);
    await buyer.addToBasket(sale.office, sale.article.node.id);
    await buyer.post(`${sale.office}/checkout/billing-information`, BILLING_FORM);
    for (const step of ["buy", "checkout/forms", "checkout/billing-information", "checkout/payment-method"]) {
      const answer = await post(buyer, `${sale.office}/${step}`, "text/plain", "termsAccepted=on");
      expect(answer.status, step).toBe(415);
      expect(headingOf(await answer.text())).toBe("This form could not be read");
    }
    // The basket is as it was, and its forms still work.
    const basket = await buyer.get(`${sale.office}/checkout/payment-method`);
    expect(basket.status).toBe(200);
    expect(await basket.text()).toContain("Entry");
  });

  it("still reads the pages' own forms, urlencoded or multipart", async () => {
    const visitor = new Visitor(product.app);
    const urlencoded = await visitor.post("/language", { lng: "fr", redirectTo: "/tickets/demo" });
    expect(urlencoded.status).toBe(302);
    expect(urlencoded.headers.get("location")).toBe("/tickets/demo");
    expect(visitor.cookies.get("lng")).toBeDefined();
    const form = new FormData();
    form.set("lng", "en");
    expect((await visitor.request("/language", { method: "POST", body: form })).status).toBe(302);
  });
});

describe("a closed event's buy link (finding 6)", () => {
  it("says registrations are not open, in English and French, with the way back to the event's page (404)", async () => {
    const sale = await eventOnSale();
    await closeRegistrations(sale.event.id);
    for (const [headers, heading, back] of [
      [{}, "Registrations are not currently open", "Back to the event's page"],
      [FRENCH, "Les inscriptions ne sont pas ouvertes actuellement", "Retour à la page de l'événement"],
    ] as const) {
      const answer = await new Visitor(product.app, headers).get(`${sale.office}/buy`);
      expect(answer.status).toBe(404);
      const html = await answer.text();
      expect(headingOf(html)).toBe(heading);
      // Inside the ticket office: the event's name above leads to its page, and so does the page's own link.
      const links = [...html.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map(([, href, text]) => ({
        href,
        text: textOf(text ?? ""),
      }));
      expect(links).toContainEqual({ href: sale.office, text: sale.event.frontendTitle });
      expect(links).toContainEqual({ href: sale.office, text: back });
    }
  });

  it("says so on the checkout steps too, rather than asking a visitor to sign in first", async () => {
    const sale = await eventOnSale();
    await closeRegistrations(sale.event.id);
    const guest = new Visitor(product.app);
    for (const step of ["checkout/forms", "checkout/billing-information", "checkout/payment-method"]) {
      const answer = await guest.get(`${sale.office}/${step}`);
      expect(answer.status, step).toBe(404);
      expect(headingOf(await answer.text())).toBe("Registrations are not currently open");
    }
    // Signed in with nothing to check out: the same answer.
    const signedIn = new Visitor(product.app);
    await signedIn.signInAsGuest(sale.office);
    const answer = await signedIn.get(`${sale.office}/checkout/billing-information`);
    expect(answer.status).toBe(404);
    expect(headingOf(await answer.text())).toBe("Registrations are not currently open");
  });

  it("leaves a buyer whose basket holds articles on their way to pay", async () => {
    const sale = await eventOnSale();
    const buyer = new Visitor(product.app);
    await buyer.signInAsGuest(sale.office);
    await buyer.addToBasket(sale.office, sale.article.node.id);
    await closeRegistrations(sale.event.id);
    const billing = await buyer.get(`${sale.office}/checkout/billing-information`);
    expect(billing.status).toBe(200);
    expect(headingOf(await billing.text())).toBe("Billing information");
  });

  it("still opens the buy page while registrations are open", async () => {
    const sale = await eventOnSale();
    const guest = new Visitor(product.app);
    await guest.signInAsGuest(sale.office);
    const answer = await guest.get(`${sale.office}/buy`);
    expect(answer.status).toBe(200);
    expect(headingOf(await answer.text())).toBe("Choose your tickets");
  });
});

describe("a payment's return page (finding 7)", () => {
  let sale: Awaited<ReturnType<typeof eventOnSale>>;
  let owner: Visitor;
  let paymentId: number;
  beforeAll(async () => {
    sale = await eventOnSale();
    owner = new Visitor(product.app);
    paymentId = await startPayment(owner, sale.office, sale.article.node.id);
  });
  const page = (visitor: Visitor, status = "success") =>
    visitor.get(`${sale.office}/payment/return/${paymentId}/${status}`);

  it("tells the buyer who made the payment that it is waiting for confirmation", async () => {
    const answer = await page(owner);
    expect(answer.status).toBe(200);
    expect(headingOf(await answer.text())).toBe("Payment received, waiting for confirmation");
  });

  it("is not found for another buyer with a basket of their own, whatever its outcome says", async () => {
    const stranger = new Visitor(product.app);
    const ownPayment = await startPayment(stranger, sale.office, sale.article.node.id);
    expect(ownPayment).not.toBe(paymentId);
    for (const status of ["success", "error", "cancel"]) {
      const answer = await page(stranger, status);
      expect(answer.status, status).toBe(404);
      expect(headingOf(await answer.text())).toBe("Page not found");
    }
    // The stranger's "cancel" did not cancel the owner's payment.
    expect(headingOf(await (await page(owner)).text())).toBe("Payment received, waiting for confirmation");
  });

  it("is not found for a visitor who is not signed in (no login page that would lead to it)", async () => {
    for (const headers of [{}, FRENCH]) {
      const answer = await page(new Visitor(product.app, headers));
      expect(answer.status).toBe(404);
      expect(headingOf(await answer.text())).toBe(headers === FRENCH ? "Page introuvable" : "Page not found");
    }
  });
});
