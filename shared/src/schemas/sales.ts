// Back-office sales: the baskets of the events a user may see, and the point of sale's "mark paid"
// (DESIGN.md 4 "Payments").
import { z } from "zod";
import { BASKET_STATUSES } from "../constants.ts";
import { Cents, Id, zId } from "./common.ts";
import { BasketItem, Invoice, BasketDetail as TicketOfficeBasketDetail } from "./ticket-office.ts";

/**
 * The back office sees a basket as the ticket office does (one presenter, services/basket-views.ts): `Basket` in
 * the list; on its page, `BasketDetail` with its promotion codes and payments, and what staff need to refund it.
 */
export { Basket } from "./ticket-office.ts";

/**
 * `GET /baskets/:id`: the ticket office's detail (`items` are the articles still held), with the articles refunded
 * and the money: what the basket's paid invoices took and what its refunds gave back (or are giving back).
 */
export const BasketDetail = TicketOfficeBasketDetail.extend({
  /** Articles (with their options) given back by a refund: their tickets no longer admit. */
  refundedItems: z.array(BasketItem),
  /** cents: the paid invoices' total */
  paidAmount: Cents,
  /** cents, positive: the refunds written and not cancelled */
  refundedAmount: Cents,
});
export type BasketDetail = z.infer<typeof BasketDetail>;

/**
 * `POST /baskets/:id/refunds`: the whole basket (no `itemIds`) or chosen articles (their options go with them),
 * with the reason staff give.
 */
export const RefundRequest = z.strictObject({
  itemIds: z
    .array(zId)
    .min(1)
    .max(1000)
    .refine((ids) => new Set(ids).size === ids.length, { error: "errors.refund_items_repeated" })
    .optional(),
  reason: z.string().trim().min(1).max(500),
});
export type RefundRequest = z.output<typeof RefundRequest>;

/** What a refund did: its credit note (a negative invoice related to the one paid), the amount, the basket's status. */
export const RefundMade = z.object({
  invoice: Invoice,
  /** cents, positive: what was paid back */
  amount: Cents,
  basketStatus: z.enum(BASKET_STATUSES),
});
export type RefundMade = z.infer<typeof RefundMade>;

/** What marking an invoice paid did: `changed` is false when it was already paid. */
export const InvoicePaid = z.object({
  invoiceId: Id,
  changed: z.boolean(),
  basketStatus: z.enum(BASKET_STATUSES),
});
export type InvoicePaid = z.infer<typeof InvoicePaid>;
