import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import { HttpError } from "react-admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch, setupProviders } from "../../test-support.ts";
import { basketItem, invoice, paymentIntent } from "./basket.fixtures.ts";
import {
  answersByItem,
  canResendConfirmation,
  formatAnswer,
  hasValidTickets,
  isPendingPointOfSale,
  NO_ANSWER,
} from "./basketDetail.ts";

const words = { yes: "Yes", no: "No" };
const en = (type: string, value: string | null) => formatAnswer({ type, value }, "en-GB", words);
const fr = (type: string, value: string | null) => formatAnswer({ type, value }, "fr-CH", { yes: "Oui", no: "Non" });

const billing = { email: "ada@example.org" } as NonNullable<BasketDetail["billingInformation"]>;
const item = basketItem(1, 4500);

describe("the basket page's form answers", () => {
  it("finds each article's answers by its id, refunded articles too", () => {
    const answer = { group: "Participant", name: "Name", type: "text", value: "Ada" };
    const byItem = answersByItem([
      { itemId: 3, answers: [answer] },
      { itemId: 7, answers: [] },
    ]);
    expect(byItem.get(3)).toEqual([answer]);
    expect(byItem.get(7)).toEqual([]);
    expect(byItem.get(5)).toBeUndefined();
  });

  it("shows an empty answer as a dash, whatever its type", () => {
    expect(en("text", "")).toBe(NO_ANSWER);
    expect(en("text", null)).toBe(NO_ANSWER);
    expect(en("boolean", "  ")).toBe(NO_ANSWER);
    expect(en("date", "")).toBe(NO_ANSWER);
  });

  it("reads a checkbox as yes or no in the back office's language", () => {
    expect(en("boolean", "true")).toBe("Yes");
    expect(en("boolean", "false")).toBe("No");
    expect(fr("boolean", "true")).toBe("Oui");
  });

  it("writes dates and moments as typed, never shifted by a time zone", () => {
    expect(en("date", "2000-01-01")).toBe("1 Jan 2000");
    expect(en("dateMajor", "1999-12-31")).toBe("31 Dec 1999");
    expect(fr("date", "2000-01-01")).toMatch(/^1 janv\.? 2000$/);
    expect(en("datetime", "2030-06-01T23:30")).toMatch(/^1 Jun 2030,? 23:30$/);
    // an answer stored before validation was strict is shown as it is rather than as "Invalid Date"
    expect(en("date", "next monday")).toBe("next monday");
  });

  it("names a country in the back office's language and keeps other answers as given", () => {
    expect(en("country", "CH")).toBe("Switzerland");
    expect(fr("country", "CH")).toBe("Suisse");
    expect(en("country", "ZZ")).toBe("ZZ");
    expect(en("choice", "Vegetarian")).toBe("Vegetarian");
    expect(en("textarea", "Line 1\nLine 2")).toBe("Line 1\nLine 2");
  });
});

describe("the basket page's actions", () => {
  it("offers 'mark as paid' only on a point-of-sale payment still to pay", () => {
    expect(isPendingPointOfSale(paymentIntent())).toBe(true);
    expect(
      isPendingPointOfSale(paymentIntent({ invoice: invoice({ isResolved: true }), state: "paid", isOngoing: false })),
    ).toBe(false);
    expect(
      isPendingPointOfSale(
        paymentIntent({ invoice: invoice({ isCancelled: true }), state: "cancelled", isOngoing: false }),
      ),
    ).toBe(false);
    expect(isPendingPointOfSale(paymentIntent({ isCancelled: true, state: "cancelled", isOngoing: false }))).toBe(
      false,
    );
    expect(isPendingPointOfSale(paymentIntent({ moduleKey: "stripe" }))).toBe(false);
  });

  it("resends the confirmation of a paid basket that has a billing address", () => {
    expect(canResendConfirmation({ status: "validated", billingInformation: billing })).toBe(true);
    expect(canResendConfirmation({ status: "edition_in_progress", billingInformation: billing })).toBe(true);
    expect(canResendConfirmation({ status: "validated", billingInformation: null })).toBe(false);
    expect(canResendConfirmation({ status: "payment_in_progress", billingInformation: billing })).toBe(false);
    expect(canResendConfirmation({ status: "refunded", billingInformation: billing })).toBe(false);
  });

  it("downloads tickets of a paid basket with articles still held", () => {
    expect(hasValidTickets({ status: "validated", items: [item] })).toBe(true);
    expect(hasValidTickets({ status: "edition_in_progress", items: [item] })).toBe(true);
    expect(hasValidTickets({ status: "validated", items: [] })).toBe(false);
    expect(hasValidTickets({ status: "new", items: [item] })).toBe(false);
    expect(hasValidTickets({ status: "refunded", items: [] })).toBe(false);
  });
});

describe("the basket page's calls", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  const tokens = { accessToken: "access-1", refreshToken: "refresh-1" };

  it("marks a point-of-sale invoice paid and reads the basket's new status", async () => {
    const calls = mockFetch(() => jsonResponse({ invoice_id: 4, changed: true, basket_status: "validated" }));
    const { dataProvider } = setupProviders(tokens);
    const { data } = await dataProvider.markInvoicePaid(4);
    expect(calls[0]).toMatchObject({ method: "POST", path: "/invoices/4/mark-paid" });
    expect(data).toEqual({ invoiceId: 4, changed: true, basketStatus: "validated" });
  });

  it("queues the confirmation again and reads the mail queued", async () => {
    const calls = mockFetch(() =>
      jsonResponse(
        {
          id: 12,
          kind: "order_confirmation",
          to: "ada@example.org",
          status: "pending",
          subject: null,
          created_at: "2030-01-01T10:00:00.000Z",
          sent_at: null,
        },
        201,
      ),
    );
    const { dataProvider } = setupProviders(tokens);
    const { data } = await dataProvider.resendConfirmation(7);
    expect(calls[0]).toMatchObject({ method: "POST", path: "/baskets/7/confirmation-mail" });
    expect(data).toMatchObject({ id: 12, to: "ada@example.org", status: "pending", sentAt: null });
  });

  it("rejects with the API's reason when the basket cannot be confirmed", async () => {
    mockFetch(() => jsonResponse({ errors: ["This basket is not paid"] }, 409));
    const { dataProvider } = setupProviders(tokens);
    const error = await dataProvider.resendConfirmation(7).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 409, message: "This basket is not paid" });
  });

  it("downloads the tickets in the language asked, under the API's file name or the basket's", async () => {
    const pdf = (disposition?: string) =>
      new Response("%PDF-1.3 …", {
        headers: { "Content-Type": "application/pdf", ...(disposition ? { "Content-Disposition": disposition } : {}) },
      });
    const calls = mockFetch(() => pdf('attachment; filename="tickets-ABC123.pdf"'));
    const { dataProvider } = setupProviders(tokens);
    const { data } = await dataProvider.downloadBasketTickets(7, "fr");
    expect(calls[0]?.path).toBe("/baskets/7/tickets");
    expect(calls[0]?.query.get("language")).toBe("fr");
    expect(calls[0]?.headers.get("Authorization")).toBe("Bearer access-1");
    expect(data.fileName).toBe("tickets-ABC123.pdf");
    expect(await data.blob.text()).toBe("%PDF-1.3 …");

    mockFetch(() => pdf());
    expect((await dataProvider.downloadBasketTickets(7, "en")).data.fileName).toBe("tickets-7.pdf");
  });

  it("rejects with the API's message when the basket has no valid ticket", async () => {
    mockFetch(() => jsonResponse({ errors: ["This basket has no valid ticket"] }, 409));
    const { dataProvider } = setupProviders(tokens);
    const error = await dataProvider.downloadBasketTickets(7, "en").catch((reason: unknown) => reason);
    expect(error).toMatchObject({ status: 409, message: "This basket has no valid ticket" });
  });
});
