// Test data for the basket page's helpers: an invoice, a payment intent and an article as the data provider gives
// them (camelCase). By default the payment is a point-of-sale one still to pay.
import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import type { PaymentIntent } from "@ticketing/shared/schemas/ticket-office";

/** An invoice of basket 1, unpaid, with `values` changed. */
export const invoice = (values: Partial<PaymentIntent["invoice"]> = {}): PaymentIntent["invoice"] => ({
  id: 1,
  basketId: 1,
  number: 1,
  isTesting: false,
  amount: 4500,
  dueDate: null,
  isResolved: false,
  resolvedAt: null,
  isCancelled: false,
  relatedInvoiceId: null,
  reason: null,
  createdAt: "2030-01-01T10:00:00.000Z",
  ...values,
});

/** A point-of-sale payment of `invoice()`, still ongoing, with `values` changed (its state and isOngoing as given). */
export const paymentIntent = (values: Partial<PaymentIntent> = {}): PaymentIntent => ({
  id: 1,
  invoiceId: 1,
  createdById: null,
  moduleKey: "point_of_sale",
  pspId: "pos_1",
  isError: false,
  isCancelled: false,
  errorMessage: null,
  createdAt: "2030-01-01T10:00:00.000Z",
  invoice: invoice(),
  state: "open",
  isOngoing: true,
  paymentUrl: null,
  ...values,
});

/** An article "Seat <id>" of the given price, without options. */
export const basketItem = (id: number, price: number): BasketDetail["items"][number] => ({
  id,
  nodeId: 1,
  title: `Seat ${id}`,
  price,
  articlePrice: price,
  options: [],
});
