// Where a payment stands: the one rule the ticket office, the back office and the mails read from the API.
import { PAYMENT_TERM_EXPIRED } from "@ticketing/shared/constants";
import { describe, expect, it } from "vitest";
import { paymentState } from "./payment-state.ts";

type Intent = Parameters<typeof paymentState>[0];
type Invoice = Parameters<typeof paymentState>[1];

const intent = (overrides: Partial<Intent> = {}) =>
  ({ isError: false, isCancelled: false, errorMessage: null, ...overrides }) as Intent;
const invoice = (overrides: Partial<Invoice> = {}) =>
  ({ isResolved: false, isCancelled: false, ...overrides }) as Invoice;

describe("a payment's state", () => {
  it("is paid once its invoice is resolved, whatever the intent says", () => {
    expect(paymentState(intent({ isCancelled: true }), invoice({ isResolved: true }))).toBe("paid");
  });

  it("has failed when the provider answered with an error", () => {
    expect(paymentState(intent({ isError: true }), invoice())).toBe("failed");
  });

  it("has expired when the payment term cancelled it", () => {
    expect(paymentState(intent({ isCancelled: true, errorMessage: PAYMENT_TERM_EXPIRED }), invoice())).toBe("expired");
  });

  it("is cancelled when the buyer cancelled it or its invoice was cancelled", () => {
    expect(paymentState(intent({ isCancelled: true }), invoice())).toBe("cancelled");
    expect(paymentState(intent(), invoice({ isCancelled: true }))).toBe("cancelled");
  });

  it("is open otherwise", () => {
    expect(paymentState(intent(), invoice())).toBe("open");
  });
});
