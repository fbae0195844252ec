import type { BasketDetail as Basket, PaymentIntent } from "@ticketing/shared/schemas/ticket-office";
import { describe, expect, it } from "vitest";
import { buyRedirect, paymentTermExpired, pickCompletedBasket, pickOpenBasket, wizardRedirect } from "./basket-rules";

const CREATED = "2030-01-01T10:00:00.000Z";
const item = { id: 11, nodeId: 2, title: "Day pass", price: 4500, articlePrice: 4500, options: [] };
const invoice = (isResolved: boolean) => ({
  id: 2,
  basketId: 7,
  number: 1,
  isTesting: false,
  amount: 4500,
  dueDate: null,
  isResolved,
  resolvedAt: null,
  isCancelled: false,
  relatedInvoiceId: null,
  reason: null,
  createdAt: CREATED,
});
const intent = (overrides: Partial<PaymentIntent> = {}): PaymentIntent => ({
  id: 3,
  invoiceId: 2,
  createdById: 1,
  moduleKey: "demo",
  pspId: "demo_1",
  isError: false,
  isCancelled: false,
  errorMessage: null,
  createdAt: CREATED,
  invoice: invoice(false),
  state: "open",
  isOngoing: true,
  paymentUrl: null,
  ...overrides,
});
const basket = (overrides: Partial<Basket> = {}): Basket => ({
  id: 7,
  eventId: 1,
  event: 1,
  createdById: 1,
  status: "new",
  testing: false,
  billingInformationId: null,
  language: "en",
  unikey: "ABCDEFGHJK",
  expiresAt: CREATED,
  holdRenewals: 0,
  holdRenewalsLeft: 3,
  createdAt: CREATED,
  updatedAt: null,
  total: 4500,
  registrationsCount: 1,
  billingInformation: null,
  items: [item],
  promotionCodes: [],
  paymentIntents: [],
  expiredItems: [],
  ...overrides,
});

describe("payment term notice", () => {
  const expired = intent({
    isCancelled: true,
    errorMessage: "payment_term_expired",
    state: "expired",
    isOngoing: false,
  });
  it("tells the buyer of an empty basket whose last payment ran out of time", () => {
    expect(paymentTermExpired(basket({ items: [], paymentIntents: [expired] }))).toBe(true);
    expect(buyRedirect(basket({ items: [], paymentIntents: [expired] }))).toBeNull();
  });
  it("says nothing once the buyer chose again, after their own cancel, or without a basket", () => {
    expect(paymentTermExpired(basket({ paymentIntents: [expired] }))).toBe(false);
    expect(
      paymentTermExpired(
        basket({ items: [], paymentIntents: [intent({ isCancelled: true, state: "cancelled", isOngoing: false })] }),
      ),
    ).toBe(false);
    expect(paymentTermExpired(null)).toBe(false);
  });
});

describe("buy guard", () => {
  it("lets a visitor fill a basket without a payment", () => {
    expect(buyRedirect(null)).toBeNull();
    expect(buyRedirect(basket())).toBeNull();
  });

  it("sends a basket being paid to the payment step", () => {
    expect(buyRedirect(basket({ status: "payment_in_progress", paymentIntents: [intent()] }))).toBe(
      "checkout/payment-method",
    );
  });

  it("ignores cancelled and failed payments", () => {
    expect(
      buyRedirect(
        basket({
          paymentIntents: [
            intent({ isCancelled: true, state: "cancelled", isOngoing: false }),
            intent({ isError: true, state: "failed", isOngoing: false }),
          ],
        }),
      ),
    ).toBeNull();
  });

  it("sends a paid basket to completion", () => {
    expect(buyRedirect(basket({ paymentIntents: [intent({ invoice: invoice(true) })] }))).toBe("completion");
  });
});

describe("wizard guard", () => {
  const billing = { step: "billing-information", newestIsCompleted: false } as const;
  const payment = { step: "payment-method", newestIsCompleted: false } as const;

  it("sends a missing or empty basket back to buy", () => {
    expect(wizardRedirect(null, billing)).toBe("buy");
    expect(wizardRedirect(basket({ items: [] }), payment)).toBe("buy");
  });

  it("sends a visitor without an open basket to completion when the newest basket is paid", () => {
    expect(wizardRedirect(null, { ...payment, newestIsCompleted: true })).toBe("completion");
  });

  it("sends a resolved invoice to completion, even from the payment step", () => {
    const paid = basket({ paymentIntents: [intent({ invoice: invoice(true) })] });
    expect(wizardRedirect(paid, billing)).toBe("completion");
    expect(wizardRedirect(paid, payment)).toBe("completion");
  });

  it("moves an ongoing payment from forms and billing information to the payment step, which stays", () => {
    const paying = basket({ status: "payment_in_progress", paymentIntents: [intent()] });
    expect(wizardRedirect(paying, { step: "forms", newestIsCompleted: false })).toBe("checkout/payment-method");
    expect(wizardRedirect(paying, billing)).toBe("checkout/payment-method");
    expect(wizardRedirect(paying, payment)).toBeNull();
  });

  it("lets a filled basket through", () => {
    expect(wizardRedirect(basket(), billing)).toBeNull();
  });
});

describe("picking baskets (newest first)", () => {
  const list = [
    { status: "validated" as const, id: 9 },
    { status: "new" as const, id: 8 },
    { status: "new" as const, id: 1 },
  ];

  it("reuses the newest open basket", () => {
    expect(pickOpenBasket(list)?.id).toBe(8);
    expect(pickOpenBasket([{ status: "refunded" as const }])).toBeNull();
  });

  it("confirms the newest paid basket", () => {
    expect(pickCompletedBasket(list)?.id).toBe(9);
  });
});
