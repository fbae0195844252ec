import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import { HttpError } from "react-admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch, setupProviders } from "../../test-support.ts";
import { basketItem, invoice, paymentIntent } from "./basket.fixtures.ts";
import { canRefund, chosenItems, refundAmountOf, refundableAmount, refundMethodOf } from "./refundPlan.ts";

describe("the basket page's refund figures", () => {
  it("announces the chosen articles' prices with their options, and what is left of the payment", () => {
    const items = [basketItem(1, 3000), basketItem(2, 2500)];
    expect(refundAmountOf(chosenItems(items, "all"))).toBe(5500);
    expect(refundAmountOf(chosenItems(items, new Set([2, 9])))).toBe(2500);
    expect(refundAmountOf(chosenItems(items, new Set()))).toBe(0);
    expect(refundableAmount({ paidAmount: 5500, refundedAmount: 3000 })).toBe(2500);
    expect(refundableAmount({ paidAmount: 0, refundedAmount: 0 })).toBe(0);
  });

  it("pays back through the module of the payment that was paid", () => {
    const failed = paymentIntent({ id: 2, moduleKey: "stripe", isError: true });
    const paid = paymentIntent({ id: 1, moduleKey: "point_of_sale", invoice: invoice({ isResolved: true }) });
    expect(refundMethodOf({ paymentIntents: [failed, paid] })).toBe("point_of_sale");
    expect(refundMethodOf({ paymentIntents: [failed] })).toBe("none");
    expect(refundMethodOf({ paymentIntents: [] })).toBe("none");
  });

  it("offers a refund only for a paid basket with articles still held", () => {
    const held = [basketItem(1, 2500)] as BasketDetail["items"];
    expect(canRefund({ status: "validated", items: held })).toBe(true);
    expect(canRefund({ status: "validated", items: [] })).toBe(false);
    expect(canRefund({ status: "payment_in_progress", items: held })).toBe(false);
    expect(canRefund({ status: "refunded", items: [] })).toBe(false);
  });
});

describe("dataProvider.refundBasket", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  const tokens = { accessToken: "access-1", refreshToken: "refresh-1" };

  it("posts the chosen articles and the reason in snake_case and reads the credit note in camelCase", async () => {
    const calls = mockFetch(() =>
      jsonResponse(
        { invoice: { id: 9, amount: -3000, related_invoice_id: 4 }, amount: 3000, basket_status: "validated" },
        201,
      ),
    );
    const { dataProvider } = setupProviders(tokens);
    const { data } = await dataProvider.refundBasket(7, { itemIds: [12], reason: "Cannot come" });
    expect(calls[0]).toMatchObject({
      method: "POST",
      path: "/baskets/7/refunds",
      body: { item_ids: [12], reason: "Cannot come" },
    });
    expect(data).toMatchObject({ invoice: { relatedInvoiceId: 4 }, amount: 3000, basketStatus: "validated" });
  });

  it("rejects with the server's message when the provider failed", async () => {
    mockFetch(() => jsonResponse({ errors: ["Refund failed"] }, 502));
    const { dataProvider } = setupProviders(tokens);
    const error = await dataProvider.refundBasket(7, { reason: "Everything" }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe("Refund failed");
    expect((error as HttpError).status).toBe(502);
  });
});
